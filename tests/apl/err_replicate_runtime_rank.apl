⍝ Replicate of a matrix by counts computed at run time: the result's rows (/)
⍝ or its first axis (⌿, through transp2) would have a run-time length inside
⍝ an array, which clift's dynamic-length arrays do not have (SPEC §3.4):
⍝ refused at the glyph.
M ← 2 3⍴⍳6
(1+M[;1]>2)⌿M

⍝ test: run-time counts for a matrix
⍝ error: err_replicate_runtime_rank.apl:6:12:
⍝ error: not supported yet: replicate of an array of rank 2 by counts computed at run time
