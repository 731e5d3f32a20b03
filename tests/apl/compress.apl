⍝ Compress (a run-time length): the result printed at its length, used in
⍝ arithmetic and counted with ≢; a mask written as a strand of 0/1.
V ← 5 6 7 8 9
K ← (V > 6) / V
⎕← ≢ K
⎕← K × 2
⎕← 1 0 1 0 1 / V
+/ K

⍝ test: compress on every target
⍝ output: 3
⍝ output: [14, 16, 18]
⍝ output: [5, 7, 9]
⍝ output: 24
