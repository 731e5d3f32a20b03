⍝ A / result of rank 3 with its run-time last axis moved to the middle
⍝ (1 3 2⍉) and bound: a run-time length inside static axes on both sides,
⍝ which clift's outermost-only run-time lengths do not express (SPEC §3.4)
⍝ and which the lowering holds first only from the last axis (docs/apl.md
⍝ §3.2): refused at the value. +/+/1 3 2⍉R, not bound, works.
A ← 2 2 3⍴⍳12
R ← (1+A[1;1;]>1)/A
⎕← +/+/1 3 2⍉R
S ← 1 3 2⍉R
+/+/S

⍝ test: a run-time length moved to a middle axis, bound
⍝ error: err_replicate_runtime_middle.apl:9:10:
⍝ error: not supported yet: an array of rank 3 with a run-time length on axis 2, neither its first nor its last
