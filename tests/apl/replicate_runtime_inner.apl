⍝ A / result read in APL's order and then bound or printed: +\R, ⊖R, 1↓R,
⍝ a static ⌿ of it, ⍉ of a ⌿ result of rank 3 (its run-time first axis
⍝ moved last by the full reversal). The value read so has its run-time
⍝ length on the last axis, inside static ones ({∃X.[[T]X]N}), which clift's
⍝ outermost-only run-time lengths do not express once bound (SPEC §3.4); the
⍝ lowering holds it again with that axis first, as the / result itself
⍝ (tail/lower_ops.c lower_hold; docs/apl.md §3.2), and reads it in APL's
⍝ order through a transposing view. Was refused at the let ("a run-time
⍝ length on axis 2"). Expected values: tests/apl/select_reference.py.
M ← 3 4⍴⍳12
R ← (1+M[1;]>2)/M
S ← +\R
⎕← +/S[1;]
⎕← S
T ← ⊖R
⎕← T
⎕← 1↓R
⎕← 1 0 1⌿R
⎕← S×T
A ← 2 2 3⍴⍳12
P ← ⍉(1+A[;1;1]>5)⌿A
⎕← ⍴P
⎕← P
+\R

⍝ test: a / result read in APL's order, bound and printed, every target
⍝ output: 49
⍝ output: [[1, 3, 6, 9, 13, 17], [5, 11, 18, 25, 33, 41], [9, 19, 30, 41, 53, 65]]
⍝ output: [[9, 10, 11, 11, 12, 12], [5, 6, 7, 7, 8, 8], [1, 2, 3, 3, 4, 4]]
⍝ output: [[5, 6, 7, 7, 8, 8], [9, 10, 11, 11, 12, 12]]
⍝ output: [[1, 2, 3, 3, 4, 4], [9, 10, 11, 11, 12, 12]]
⍝ output: [[9, 30, 66, 99, 156, 204], [25, 66, 126, 175, 264, 328], [9, 38, 90, 123, 212, 260]]
⍝ output: [3, 2, 3]
⍝ output: [[[1, 7, 7], [4, 10, 10]], [[2, 8, 8], [5, 11, 11]], [[3, 9, 9], [6, 12, 12]]]
⍝ output: [[1, 3, 6, 9, 13, 17], [5, 11, 18, 25, 33, 41], [9, 19, 30, 41, 53, 65]]
