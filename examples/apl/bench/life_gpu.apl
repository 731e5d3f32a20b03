⍝ bench/life_gpu.apl: life_board.apl at the size of §3.5.6 (Table 3.6:
⍝ 1200×1200, N = 100 generations). It prints the initial population; its value
⍝ is the final population.
life ← {
  N ← (¯1⊖¯1⌽⍵)+(¯1⊖⍵)+(¯1⊖1⌽⍵)+(¯1⌽⍵)+(1⌽⍵)+(1⊖¯1⌽⍵)+(1⊖⍵)+1⊖1⌽⍵
  (N=3)∨⍵∧N=2
}
R ← 1200 ⋄ C ← 1200 ⋄ K ← 100
G0 ← 400>1009|(⍳R)∘.{(31×⍺×⍺)+(17×⍵×⍵)+7×⍺×⍵}⍳C
G ← (life⍣K) G0
⎕← +/,G0
+/,G

⍝ test: a 1200×1200 board, 100 generations
⍝ output: 571623
⍝ output: 128837
