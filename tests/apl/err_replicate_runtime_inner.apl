⍝ +\ of a / result (a matrix whose rows have one run-time length), bound: a
⍝ scan along the run-time axis is not element-wise, so it reads the result
⍝ in TAIL's order, rows of a run-time length inside a static first axis
⍝ ({∃X.[[T]X]N}), which clift's outermost-only run-time lengths do not
⍝ express once bound (SPEC §3.4): refused at the let. The / result itself,
⍝ kept transposed, works (replicate_runtime_last.apl).
M ← 3 4⍴⍳12
R ← (1+M[1;]>2)/M
S ← +\R
+/S[1;]

⍝ test: a scan along a / result's run-time axis, bound
⍝ error: err_replicate_runtime_inner.apl:9:6:
⍝ error: not supported yet: an array of rank 2 with a run-time length on axis 2
