⍝ A[i;j;k] on a matrix: three indices for two axes, a rank error at the '['.
M ← 2 3⍴⍳6
M[1;2;3]

⍝ test: too many indices
⍝ error: err_index_rank.apl:3:2:
⍝ error: rank error
