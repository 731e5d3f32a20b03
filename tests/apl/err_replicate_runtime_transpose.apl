⍝ ⍉ of a ⌿ result by a run-time mask, as a value of the program: its run-time
⍝ length would be its second axis ({∃X.[[T]X]N}), which clift's outermost-only
⍝ run-time lengths do not express (SPEC §3.4): refused at the ⍉. Read where it
⍝ is (+/⍉R, +⌿R) it works (replicate_runtime_matrix.apl).
M ← 3 4⍴⍳12
R ← (M[;1]>2)⌿M
⎕← +/⍉R
⍉R

⍝ test: a ⌿ result transposed, bound
⍝ error: err_replicate_runtime_transpose.apl:8:1:
⍝ error: not supported yet: an array of rank 2 with a run-time length on axis 2
