⍝ Indexing a vector with a scalar, a vector and a matrix of indices (the
⍝ result has the index's shape); a char vector indexed by a boolean matrix
⍝ (life.apl's '.#'[1+G]) prints one row per line; a dfn reading a global
⍝ under ∘. with ⍺ and ⍵.
V ← 10 20 30
G ← 2 3⍴1 0 0 1 1 0
⎕← V[2]
⎕← V[3 1 1]
⎕← 'abc'[3 1]
⎕← '.#'[1+G]
⎕← V[2 2⍴3 2 1 2]
B ← 100
(⍳2)∘.{B+⍺-⍵}⍳3

⍝ test: indexing and chars on every target
⍝ output: 20
⍝ output: [30, 10, 10]
⍝ output: ca
⍝ output: #..
⍝ output: ##.
⍝ output: [[30, 20], [10, 20]]
⍝ output: [[100, 99, 98], [101, 100, 99]]
