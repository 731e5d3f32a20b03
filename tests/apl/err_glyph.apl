⍝ A glyph that is not APL (and a wide character before it on the line).
X ← ⍳4 ⋄ Y ← X ★ 2
+/Y

⍝ test: an unknown glyph, at its code-point column
⍝ error: err_glyph.apl:2:16:
⍝ error: unknown glyph '★'
