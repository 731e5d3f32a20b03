⍝ Scans f\ (last axis) and f⍀ (first axis): associative primitives (a tree
⍝ scan from the identity), the others as APL's right fold of each prefix
⍝ (-\ ÷\, a dfn), booleans widened for + and kept for < ∧ ≠, a matrix both
⍝ ways, and the scan of a compress result (a length known at run time).
⍝ Expected values computed by hand as f/ of each prefix.
V ← 3 1 4 1 5
⎕← +\V
⎕← -\V
⎕← ×\⍳5
⎕← ⌊\5 3 4 1 2
⎕← ⌈\V
⎕← ÷\2 4 8 0.5
⎕← +\0.5 0.25 1.5 2
⎕← +\1 0 1 1
⎕← <\0 0 1 1 0 1
⎕← ∧\1 1 0 1
⎕← ≠\1 0 1 1
⎕← {(2×⍺)-⍵}\1 2 3 4
M ← 2 3⍴⍳6
⎕← -\M
⎕← -⍀M
⎕← +⍀M
⎕← +\(V>2)/V
+\7

⍝ test: scans on every target
⍝ output: [3, 4, 8, 9, 14]
⍝ output: [3, 2, 6, 5, 10]
⍝ output: [1, 2, 6, 24, 120]
⍝ output: [5, 3, 3, 1, 1]
⍝ output: [3, 3, 4, 4, 5]
⍝ output: [2, 0.5, 4, 8]
⍝ output: [0.5, 0.75, 2.25, 4.25]
⍝ output: [1, 1, 2, 3]
⍝ output: [0, 0, 1, 0, 0, 0]
⍝ output: [1, 1, 0, 0]
⍝ output: [1, 1, 0, 1]
⍝ output: [1, 0, 1, 0]
⍝ output: [[1, -1, 2], [4, -1, 5]]
⍝ output: [[1, 2, 3], [-3, -3, -3]]
⍝ output: [[1, 2, 3], [5, 7, 9]]
⍝ output: [3, 7, 12]
⍝ output: 7
