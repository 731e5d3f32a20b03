⍝ Scalar extension on both sides, coercions (÷ gives doubles, booleans are
⍝ ints in arithmetic), = on ints, ⌈ ⌊ and | (APL's floor residue: 3|¯7 is 2).
V ← 1 2 3 4
⎕← V ÷ 2
⎕← 10 - V
⎕← (V = 2) + V
⎕← 2 ⌈ V ⌊ 3
⎕← 3 | ¯7 ¯1 0 5 7
⎕← ¯3 | 7
+/ (V > 2) × V

⍝ test: scalar extension and coercions
⍝ output: [0.5, 1, 1.5, 2]
⍝ output: [9, 8, 7, 6]
⍝ output: [1, 3, 3, 4]
⍝ output: [2, 2, 3, 3]
⍝ output: [2, 2, 0, 2, 1]
⍝ output: -2
⍝ output: 7
