⍝ Dyadic ⍉ with a repeated axis (a diagonal; refused before the thirteenth
⍝ session): Z⍉A has an axis k for each of 1…⌈/Z, as long as the shortest
⍝ axis i of A with Z[i] = k, and item (j_1 … j_q) is A[j_Z[1]; …; j_Z[r]].
⍝ Expected values by hand (row-major ⍳): M is 3 4⍴⍳12, A is 2 3 4⍴⍳24 (item
⍝ (i, j, k) is 1 + 12i + 4j + k, 0-based); the last matrix's rows are kept at
⍝ run time (rows 2 3 4 of 5 4⍴⍳20).
M ← 3 4⍴⍳12
⎕← 1 1⍉M
A ← 2 3 4⍴⍳24
⎕← 1 1 1⍉A
⎕← 1 1 2⍉A
⎕← 2 1 1⍉A
⎕← 1 2 1⍉A
⎕← +/1 1⍉4 4⍴⍳16
V ← 2 3 4 5 1
1 1⍉(V > 2)⌿5 4⍴⍳20

⍝ test: diagonals, every target
⍝ output: [1, 6, 11]
⍝ output: [1, 18]
⍝ output: [[1, 2, 3, 4], [17, 18, 19, 20]]
⍝ output: [[1, 13], [6, 18], [11, 23]]
⍝ output: [[1, 5, 9], [14, 18, 22]]
⍝ output: 34
⍝ output: [5, 10, 15]
