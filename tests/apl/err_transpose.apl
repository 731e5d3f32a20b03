⍝ The left argument of ⍉ names axes of the array (a repeated one is a
⍝ diagonal: transpose_diagonal.apl).
M ← 2 3⍴⍳6
1 3⍉M

⍝ test: an axis the array does not have
⍝ error: err_transpose.apl:4:4:
⍝ error: domain error: ⍉ axis 3 of an array of rank 2
