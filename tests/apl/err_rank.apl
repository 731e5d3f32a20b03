⍝ A rank error: a matrix minus a vector (neither a scalar, ranks differ).
⍝ The error is at the function, after a dfn call inlined with the matrix.
M ← (⍳2) ∘.+ ⍳3
sub ← {⍵ − 1 2 3}
sub M

⍝ test: ranks 2 and 1
⍝ error: err_rank.apl:4:10:
⍝ error: rank error
