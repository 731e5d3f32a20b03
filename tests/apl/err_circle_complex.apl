⍝ 12○ (the phase) needs complex numbers, which are not in the subset.
12○1 2

⍝ test: a complex circle function is refused
⍝ error: err_circle_complex.apl:2:3:
⍝ error: needs complex numbers
