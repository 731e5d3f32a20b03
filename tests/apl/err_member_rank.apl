⍝ ∊ with a matrix on the left is refused at the glyph (its result would be a
⍝ matrix of booleans; not built yet, docs/apl.md §5).
M ← 2 2⍴1 2 3 4
M∊2

⍝ test: a matrix on the left of ∊
⍝ error: err_member_rank.apl:4:2:
⍝ error: not supported yet: ∊ with a left argument of rank 2
