⍝ Monadic ⍪ (table: a scalar 1 1, a vector n 1, rank 3 as first axis by the
⍝ rest), monadic × (signum of ints and doubles, an int), ~, and the dyadic
⍝ booleans ⍲ ⍱ and ≤, all pointwise on vectors.
⎕← ⍪5
⎕← ⍪1 2 3
⎕← ⍪2 2 2⍴⍳8
⎕← ⍴⍪2 3 4⍴0
⎕← ×¯3 0 5
⎕← ×¯2.5 0 0.125
⎕← ~1 0 1
⎕← 1 1 0 0⍲1 0 1 0
⎕← 1 1 0 0⍱1 0 1 0
⎕← 1 2 3≤3 2 1
×¯7

⍝ test: monadic table and signum, boolean functions on every target
⍝ output: [[5]]
⍝ output: [[1], [2], [3]]
⍝ output: [[1, 2, 3, 4], [5, 6, 7, 8]]
⍝ output: [2, 12]
⍝ output: [-1, 0, 1]
⍝ output: [-1, 0, 1]
⍝ output: [0, 1, 0]
⍝ output: [0, 1, 1, 1]
⍝ output: [0, 0, 0, 1]
⍝ output: [1, 1, 0]
⍝ output: -1
