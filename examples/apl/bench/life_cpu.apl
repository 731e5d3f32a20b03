⍝ bench/life_cpu.apl: life_board.apl at the size of the thesis's Table 3.1 (a
⍝ 40×40 board, N = 20.000 generations). It prints the initial population; its
⍝ value is the final population.
life ← {
  N ← (¯1⊖¯1⌽⍵)+(¯1⊖⍵)+(¯1⊖1⌽⍵)+(¯1⌽⍵)+(1⌽⍵)+(1⊖¯1⌽⍵)+(1⊖⍵)+1⊖1⌽⍵
  (N=3)∨⍵∧N=2
}
R ← 40 ⋄ C ← 40 ⋄ K ← 20000
G0 ← 400>1009|(⍳R)∘.{(31×⍺×⍺)+(17×⍵×⍵)+7×⍺×⍵}⍳C
G ← (life⍣K) G0
⎕← +/,G0
+/,G

⍝ test: a 40×40 board, 20000 generations
⍝ output: 636
⍝ output: 33
