⍝ , on the last axis and ⍪ on the first, of matrices, a matrix and a vector
⍝ (a row), vectors; computed scalars joined; ravel of a matrix and a scalar.
M ← 2 2⍴⍳4
a ← +/1 2 ⋄ b ← ×/3 4
⎕← M,2 1⍴5 6
⎕← M⍪1 2⍴7 8
⎕← M⍪9 8
⎕← 7 6⍪M
⎕← 1 2⍪3
⎕← 1 2,3 4
⎕← a,b
⎕← (≢M),a
⎕← ,2 3⍴⍳6
⎕← ,5
+/,M

⍝ test: catenation and ravel on every target
⍝ output: [[1, 2, 5], [3, 4, 6]]
⍝ output: [[1, 2], [3, 4], [7, 8]]
⍝ output: [[1, 2], [3, 4], [9, 8]]
⍝ output: [[7, 6], [1, 2], [3, 4]]
⍝ output: [1, 2, 3]
⍝ output: [1, 2, 3, 4]
⍝ output: [3, 12]
⍝ output: [2, 3]
⍝ output: [1, 2, 3, 4, 5, 6]
⍝ output: [5]
⍝ output: 10
