⍝ Trains: (f g h)⍵ is (f ⍵) g (h ⍵), (g h)⍵ is g (h ⍵), ⍺ (f g h) ⍵ is
⍝ (⍺ f ⍵) g (⍺ h ⍵); a longer train is forks from the right.
avg ← +/÷≢
⎕← avg 1 2 3 4
⎕← (+/÷≢) 2 4
⎕← (-+/) 1 2 3
⎕← 3 (+×-) 5
⎕← (⊢-+/÷≢) 1 2 3 6
⎕← {avg ⍵×1 2 3}¨ 1 2
norm ← ⊢÷+/
norm 1 3

⍝ test: forks, atops, named, under ¨
⍝ output: 2.5
⍝ output: 3
⍝ output: -6
⍝ output: -16
⍝ output: [-2, -1, 0, 3]
⍝ output: [2, 4]
⍝ output: [0.25, 0.75]
