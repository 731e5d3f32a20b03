⍝ ⍺⍺ in a dfn applied as a function (not through an operator name).
x ← 1 2 3
{⍺⍺ ⍵} x

⍝ test: ⍺⍺ outside an operator
⍝ error: err_operand.apl:3:2:
⍝ error: not applied as an operator
