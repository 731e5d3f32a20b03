⍝ Dyadic ¨: a dfn applied to pairs of elements (zipWith), or with a scalar
⍝ side fixed (each); a multi-line dfn with a local under ¨.
g ← {
  a ← ⍺×⍵
  a+1
}
⎕← 2 3 g¨ 4 5
⎕← 10 {⍺-⍵}¨ 1 2 3
⎕← 1 2 3 {⍺-⍵}¨ 10
⎕← 1.5 ¯2 {⍺|⍵}¨ ¯7 7
1 2 3 {⍺+⍵×2}¨ 4 5 6

⍝ test: pairs and scalar extension
⍝ output: [9, 16]
⍝ output: [9, 8, 7]
⍝ output: [-9, -8, -7]
⍝ output: [0.5, -1]
⍝ output: [9, 12, 15]
