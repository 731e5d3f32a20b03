⍝ errors/rank_index.apl: a matrix indexed with one index (A[i] needs as many
⍝ indices as A has axes). The error is at the bracket.
M ← 2 3⍴⍳6
M[2]

⍝ test: one index for a matrix is a rank error
⍝ error: rank_index.apl:4:2:
⍝ error: rank
