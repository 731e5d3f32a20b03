⍝ transpose.apl: monadic ⍉ (the axes reversed) and dyadic ⍉ (APL: Z⍉X moves
⍝ axis i of X to axis Z[i]), with a literal and a computed left argument.
M ← 2 3⍴⍳6
T ← 2 3 4⍴⍳24
⎕← ⍉M
⎕← ⍴⍉T
⎕← 1 2⍉M
⎕← ⍴3 1 2⍉T
V ← ⍳⊃⍴⍴T
⎕← ⍴(1⌽V)⍉T
(¯1⌽V)⍉T

⍝ test: ⍉
⍝ output: [[1, 4], [2, 5], [3, 6]]
⍝ output: [4, 3, 2]
⍝ output: [[1, 2, 3], [4, 5, 6]]
⍝ output: [3, 4, 2]
⍝ output: [4, 2, 3]
⍝ output: [[[1, 13], [2, 14], [3, 15], [4, 16]], [[5, 17], [6, 18], [7, 19], [8, 20]], [[9, 21], [10, 22], [11, 23], [12, 24]]]
