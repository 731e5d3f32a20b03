⍝ Replicate along the last axis (/) of a matrix by counts computed at run
⍝ time: each row would have one run-time length inside the static first axis
⍝ ({∃X.[[T]X]N}), and clift's run-time lengths are outermost only (SPEC
⍝ §3.4): refused at the glyph. ⌿, the first axis, works
⍝ (replicate_runtime_matrix.apl).
M ← 2 3⍴⍳6
(1+M[1;]>2)/M

⍝ test: run-time counts for the last axis of a matrix
⍝ error: err_replicate_runtime_rank.apl:7:12:
⍝ error: not supported yet: replicate of the last axis of an array of rank 2 by counts computed at run time (each row would have one run-time length inside a static first axis, {∃X.[[T]X]N}
