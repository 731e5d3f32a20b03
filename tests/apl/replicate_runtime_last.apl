⍝ Compress and replicate along the last axis (/) of an array of rank ≥ 2 by
⍝ a mask or counts computed at run time (docs/apl.md §3.2, "Run-time
⍝ replicate and expand"): rows of one run-time length inside a static first
⍝ axis, {∃X.[[T]X]N} as TAIL sees it, which SPEC §3.4 does not express; the
⍝ lowering keeps the transpose, {∃X.[[T]N]X} (the run-time length
⍝ outermost), reads it through a transposing view, and prints it by rows.
⍝ An all-zero mask gives rows of no items, negative counts fill columns
⍝ (APL2, Dyalog); chars, doubles, the result under +/ +⌿ × ⍴ ≢ ⍉, ⍉ of a ⌿
⍝ result, / of a transposed matrix, +/ of rank 3. Expected values:
⍝ tests/apl/select_reference.py.
M ← 3 4⍴⍳12
⎕← (M[1;]>2)/M
⎕← (1+M[1;]>2)/M
⎕← (1-2×M[1;]>2)/M
⎕← (M[1;]>20)/M
⎕← ⍴(M[1;]>20)/M
⎕← (M[1;]>2)/2 4⍴'abcdefgh'
⎕← (1+M[1;]>2)/1 4⍴1.5 2.5 3.5 4.5
R ← (1+M[1;]>2)/M
⎕← +/R
⎕← +⌿R
⎕← R×2
⎕← ⍴R
⎕← ⍉R
⎕← ⍉(M[;1]>2)⌿M
⎕← (1+M[;1]>2)/⍉M
A ← 2 2 3⍴⍳12
⎕← +/(1+A[1;1;]>1)/A
≢R

⍝ test: / of a matrix by run-time masks and counts on every target
⍝ output: [[3, 4], [7, 8], [11, 12]]
⍝ output: [[1, 2, 3, 3, 4, 4], [5, 6, 7, 7, 8, 8], [9, 10, 11, 11, 12, 12]]
⍝ output: [[1, 2, 0, 0], [5, 6, 0, 0], [9, 10, 0, 0]]
⍝ output: [[], [], []]
⍝ output: [3, 0]
⍝ output: cd
⍝ output: gh
⍝ output: [[1.5, 2.5, 3.5, 3.5, 4.5, 4.5]]
⍝ output: [17, 41, 65]
⍝ output: [15, 18, 21, 21, 24, 24]
⍝ output: [[2, 4, 6, 6, 8, 8], [10, 12, 14, 14, 16, 16], [18, 20, 22, 22, 24, 24]]
⍝ output: [3, 6]
⍝ output: [[1, 5, 9], [2, 6, 10], [3, 7, 11], [3, 7, 11], [4, 8, 12], [4, 8, 12]]
⍝ output: [[5, 9], [6, 10], [7, 11], [8, 12]]
⍝ output: [[1, 5, 5, 9, 9], [2, 6, 6, 10, 10], [3, 7, 7, 11, 11], [4, 8, 8, 12, 12]]
⍝ output: [[11, 26], [41, 56]]
⍝ output: 3
