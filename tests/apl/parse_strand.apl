⍝ A strand is one vector: f 1 2 3 applies f to the vector, and a strand of
⍝ ints and doubles is a double vector. A dfn's argument ⍵ is the strand.
f ← {⍵×2}
⎕← f 1 2 3
⎕← 1 2.5 3 + 1
g ← {⍺-⍵}
10 g 1 2 3

⍝ test: strands against application
⍝ output: [2, 4, 6]
⍝ output: [2, 3.5, 4]
⍝ output: [9, 8, 7]
