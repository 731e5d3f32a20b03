⍝ A dyadic operator needs a function on each side.
op ← {⍺⍺ ⍵⍵ ⍵}
- op 3

⍝ test: a value as the right operand
⍝ error: err_operator.apl:3:6:
⍝ error: needs a function on its right
