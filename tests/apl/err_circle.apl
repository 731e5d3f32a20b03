⍝ ¯1○ (arcsin) needs a scalar operation clift does not have: refused at ○.
X ← 0.5 0.25
¯1○X

⍝ test: arcsin is refused with the reason
⍝ error: err_circle.apl:3:3:
⍝ error: ¯1○ (arcsin)
