⍝ inner.apl: the built-in inner product f.g (docs/apl.md §3.3): matrix·matrix,
⍝ matrix·vector, vector·matrix, vector·vector, booleans (≠.∧), max-plus, mixed
⍝ bases (bool·double), rank 3 by rank 2, and the shape (¯1↓⍴A),1↓⍴B.
A ← 3 2⍴⍳5
B ← 2 3⍴⍳6
⎕← A +.× B
⎕← A +.× 1 2
⎕← 1 2 +.× B
⎕← 1 2 3 +.× 4 5 6
⎕← (2 2⍴1 0 1 1) ≠.∧ 2 3⍴1 1 0 0 1 1
⎕← A ⌈.+ B
⎕← (2 2⍴1 0 1 1) +.× 0.5 0.25
⎕← ⍴(2 3 2⍴⍳12) +.× 2 4⍴⍳8
(2 3 2⍴⍳12) +.× 2 4⍴⍳8

⍝ test: inner products
⍝ output: [[9, 12, 15], [19, 26, 33], [9, 15, 21]]
⍝ output: [5, 11, 7]
⍝ output: [9, 12, 15]
⍝ output: 32
⍝ output: [[1, 1, 0], [1, 0, 1]]
⍝ output: [[6, 7, 8], [8, 9, 10], [6, 7, 8]]
⍝ output: [0.5, 0.75]
⍝ output: [2, 3, 4]
⍝ output: [[[11, 14, 17, 20], [23, 30, 37, 44], [35, 46, 57, 68]], [[47, 62, 77, 92], [59, 78, 97, 116], [71, 94, 117, 140]]]
