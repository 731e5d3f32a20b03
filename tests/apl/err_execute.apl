⍝ ⍎ (execute: evaluating text) is not in the subset; the error is at the glyph.
X ← 2 + ⍎ '1 2'
X

⍝ test: ⍎ is refused
⍝ error: err_execute.apl:2:9:
⍝ error: not in the subset
