⍝ ⌽ (last axis) and ⊖ (first axis), dyadic and monadic, on matrices and
⍝ vectors, with negative counts and counts beyond the length.
M ← 3 2⍴⍳6
N ← 2 3⍴⍳6
⎕← 1⊖M
⎕← ¯1⊖M
⎕← 4⊖M
⎕← 1⌽N
⎕← ¯4⌽N
⎕← ⊖N
⎕← ⌽N
⎕← ⊖1 2 3
⌽1 2 3

⍝ test: rotations and reversals on every target
⍝ output: [[3, 4], [5, 6], [1, 2]]
⍝ output: [[5, 6], [1, 2], [3, 4]]
⍝ output: [[3, 4], [5, 6], [1, 2]]
⍝ output: [[2, 3, 1], [5, 6, 4]]
⍝ output: [[3, 1, 2], [6, 4, 5]]
⍝ output: [[4, 5, 6], [1, 2, 3]]
⍝ output: [[3, 2, 1], [6, 5, 4]]
⍝ output: [3, 2, 1]
⍝ output: [3, 2, 1]
