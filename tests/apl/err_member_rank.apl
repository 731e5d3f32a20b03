⍝ ~ (without) with a matrix on the left is APL's rank error, at the glyph
⍝ (∊ takes a left argument of any rank: member_matrix.apl).
M ← 2 2⍴1 2 3 4
M~2

⍝ test: a matrix on the left of ~
⍝ error: err_member_rank.apl:4:2:
⍝ error: rank error: the left argument of ~ must be a scalar or a vector, not of rank 2
