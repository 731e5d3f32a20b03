⍝ ⍣: a static count, a count computed at run time, a count of 0, booleans
⍝ widened to ints by the function, a matrix, a dfn reading globals (S, M).
S ← 10
K ← ⌈2.5
M ← 2 2⍴⍳4
⎕← ({⍵+1}⍣3) 1 2 3
⎕← ({⍵×2}⍣K) 1 2
⎕← ({⍵+1}⍣0) 5 6
⎕← ({⍵+1}⍣2) 0 1
⎕← ({⊖⍵}⍣3) M
⎕← ({⍵+S}⍣2) 1 2
add ← {⍵+M}
(add⍣K) M

⍝ test: power on every target
⍝ output: [4, 5, 6]
⍝ output: [8, 16]
⍝ output: [5, 6]
⍝ output: [2, 3]
⍝ output: [[3, 4], [1, 2]]
⍝ output: [21, 22]
⍝ output: [[4, 8], [12, 16]]
