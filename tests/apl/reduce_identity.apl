⍝ Reductions: identity elements (an empty vector reduces to them), right
⍝ folds (-/ is 1-(2-(3-4))), ⌈/ ⌊/ of ints and doubles, +⌿ of a matrix.
⎕← -/ 1 2 3 4
⎕← ×/ 1 2 3 4
⎕← ⌈/ 3 ¯7 5
⎕← ⌊/ 2.5 ¯1.5
⎕← +/ 0↓⍳0
⎕← ⌈/ 3↓1 2 3
M ← (⍳3) ∘.× ⍳4
⎕← +/ M
+⌿ M

⍝ test: identities, right folds, both axes
⍝ output: -2
⍝ output: 24
⍝ output: 5
⍝ output: -1.5
⍝ output: 0
⍝ output: -2147483648
⍝ output: [10, 20, 30]
⍝ output: [6, 12, 18, 24]
