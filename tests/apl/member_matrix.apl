⍝ Dyadic ∊ with a left argument of rank 2 and 3 (refused before the thirteenth
⍝ session): each(fn x => ∨/x=,B, A) over the whole array, booleans of A's
⍝ shape. Expected values by hand: M is [[1,2,3],[4,5,6]]; 2 2 2⍴⍳8 holds 1…8,
⍝ of which 1 2 3 are in 3 4⍴⍳3; a matrix of chars; a reduction of the result.
M ← 2 3⍴1 2 3 4 5 6
⎕← M∊2 5 9
⎕← (2 2 2⍴⍳8)∊3 4⍴⍳3
⎕← (2 2⍴'abcd')∊'db'
⎕← M∊M
+/,M∊4 6

⍝ test: membership of matrices, every target
⍝ output: [[0, 1, 0], [0, 1, 0]]
⍝ output: [[[1, 1], [1, 0]], [[0, 0], [0, 0]]]
⍝ output: [[0, 1], [0, 1]]
⍝ output: [[1, 1, 1], [1, 1, 1]]
⍝ output: 2
