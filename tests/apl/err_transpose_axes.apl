⍝ A left argument of ⍉ that repeats an axis must still hold every axis from 1
⍝ to its largest (APL's domain error), at the glyph.
M ← 3 3⍴⍳9
2 2⍉M

⍝ test: axis 1 missing
⍝ error: err_transpose_axes.apl:4:4:
⍝ error: domain error: the left argument of ⍉ must hold every axis from 1 to its largest (2), and 1 is missing
