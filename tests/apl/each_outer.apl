⍝ ¨ with a dfn (inlined at the element type), ∘. with a primitive and with a
⍝ dfn reading a global, rotation ⌽ both ways, ↓ with a negative count.
N ← 10
sq ← {⍵×⍵}
⎕← sq¨ 1 2 3
⎕← 1 2 ∘.{N×⍺+⍵} 1 2 3
⎕← 1 ⌽ 1 2 3 4
⎕← ¯1 ⌽ 1 2 3 4
¯2 ↓ 1 2 3 4

⍝ test: each, outer products, rotate, drop
⍝ output: [1, 4, 9]
⍝ output: [[20, 30, 40], [30, 40, 50]]
⍝ output: [2, 3, 4, 1]
⍝ output: [4, 1, 2, 3]
⍝ output: [1, 2]
