⍝ errors/rank.apl: a scalar function of a matrix and a vector: neither is a
⍝ scalar and their ranks differ. The error is at the function (+).
M ← 2 2⍴⍳4
M+1 2

⍝ test: matrix plus vector is a rank error
⍝ error: rank.apl:4:2:
⍝ error: rank
