⍝ Guards in dfns are not in the subset; the error is at the ':'.
sgn ← {⍵>0: 1 ⋄ ¯1}
sgn 3

⍝ test: a guard is refused
⍝ error: err_guard.apl:2:11:
⍝ error: guards ':' in dfns are not in the subset
