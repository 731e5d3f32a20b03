⍝ 13○ is not a circle function (¯12 … 12 are): a domain error at ○.
X ← 0.5 0.25
13○X

⍝ test: 13○ is refused with the reason
⍝ error: err_circle.apl:3:3:
⍝ error: domain error: 13○ is not a circle function
