⍝ Compress along the last axis (/) of a matrix by a mask computed at run
⍝ time: as replicate (err_replicate_runtime_rank.apl), rows of one run-time
⍝ length inside a static first axis, refused at the glyph; ⌿ works.
M ← 2 3⍴⍳6
(M[1;]>1)/M

⍝ test: a run-time mask for the last axis of a matrix
⍝ error: err_compress_runtime_rank.apl:5:10:
⍝ error: not supported yet: compress of the last axis of an array of rank 2 by a mask computed at run time (each row would have one run-time length inside a static first axis, {∃X.[[T]X]N}
