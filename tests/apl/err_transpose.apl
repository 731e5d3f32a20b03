⍝ The left argument of ⍉ must be a permutation of the axes.
M ← 2 3⍴⍳6
1 1⍉M

⍝ test: a repeated axis
⍝ error: err_transpose.apl:3:4:
⍝ error: repeated axis
