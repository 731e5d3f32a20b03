⍝ A dfn calling itself by its own name inside an outer product.
tbl ← {⍵∘.{⍺×tbl ⍵}⍵}
tbl 1 2 3

⍝ test: a named dfn used in its own body
⍝ error: err_recursion2.apl:2:14:
⍝ error: recursion
