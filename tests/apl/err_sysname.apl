⍝ A system name other than ⎕← and the bit operations is refused at the ⎕.
X ← 3
Y ← ⎕NOW X

⍝ test: an unknown system name
⍝ error: err_sysname.apl:3:5:
⍝ error: not supported yet: the system name ⎕NOW
