⍝ A ')' with no '(' before it.
X ← ⍳4
+/X)

⍝ test: a ')' without its '('
⍝ error: err_close.apl:3:4:
⍝ error: ')' without a matching '('
