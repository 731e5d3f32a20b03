⍝ Dyadic ⍴: cyclic (fewer elements than the shape), a prefix, a scalar
⍝ source, rank 3, a matrix read row by row, doubles.
M ← 2 3⍴⍳4
⎕← M
⎕← 5⍴2 3
⎕← 2 2⍴7
⎕← 2 2 2⍴⍳8
⎕← 3⍴M
+/ 2 3⍴2.5

⍝ test: reshape on every target
⍝ output: [[1, 2, 3], [4, 1, 2]]
⍝ output: [2, 3, 2, 3, 2]
⍝ output: [[7, 7], [7, 7]]
⍝ output: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
⍝ output: [1, 2, 3]
⍝ output: [7.5, 7.5]
