⍝ Multi-line dfns with locals: a local hides a global of the same name
⍝ inside the dfn only; ¨ applies the dfn to each element, its locals in
⍝ each element's scope.
X ← 100
f ← {
  X ← ⍵×2         ⍝ a local X
  Y ← X+1
  Y×X
}
⎕← f¨ 1 2 3
⎕← X
g ← {
  a ← ⍺+⍵
  b ← ⍺−⍵         ⍝ − (U+2212) is -
  a×b
}
⎕← 5 g 3
⎕← 5 g 1 2 3
h ← {
  s ← ⍵<0
  m ← |⍵
  m+s×10
}
⎕← h¨ ¯1 2 ¯3.5
f 4

⍝ test: locals, dyadic dfn, booleans in arithmetic
⍝ output: [6, 20, 42]
⍝ output: 100
⍝ output: 16
⍝ output: [24, 21, 16]
⍝ output: [11, 2, 13.5]
⍝ output: 72
