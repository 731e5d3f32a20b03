⍝ Indexing with ';': a scalar or nothing per axis, static or computed at run
⍝ time, on a matrix, a rank-3 array and a char matrix; A[] is A.
M ← 3 4⍴⍳12
⎕← M[2;3]
⎕← M[2;]
⎕← M[;3]
k ← +/1 1
⎕← M[k;k+2]
V ← 1 2 3
⎕← M[+/V>1;1]
A ← 2 3 4⍴⍳24
⎕← A[2;;3]
⎕← A[;2;]
⎕← A[1;3;4]
⎕← (2 3⍴'abcdef')[2;]
⎕← M[]
(2 2⍴10 20 30 40)[1;2]

⍝ test: matrix indexing on every target
⍝ output: 7
⍝ output: [5, 6, 7, 8]
⍝ output: [3, 7, 11]
⍝ output: 8
⍝ output: 5
⍝ output: [15, 19, 23]
⍝ output: [[5, 6, 7, 8], [17, 18, 19, 20]]
⍝ output: 12
⍝ output: def
⍝ output: [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
⍝ output: 20
