⍝ Expand with a mask known when compiling: fills (0, 0.0, a blank) where
⍝ the mask is 0, the last axis \ and the first ⍀ of a matrix, a scalar
⍝ right argument used for every 1.
⎕← 1 0 1 1 0\5 6 7
⎕← 0 1 1\2.5 3.5
⎕← 1 1 0 1\'abc'
⎕← 1 0 1 0\5
M ← 2 2⍴⍳4
⎕← 1 0 1\M
⎕← 0 1 0 1⍀M
+/1 0 1\2 3

⍝ test: expand on every target
⍝ output: [5, 0, 6, 7, 0]
⍝ output: [0, 2.5, 3.5]
⍝ output: ab c
⍝ output: [5, 0, 5, 0]
⍝ output: [[1, 0, 2], [3, 0, 4]]
⍝ output: [[0, 0], [1, 2], [0, 0], [3, 4]]
⍝ output: 5
