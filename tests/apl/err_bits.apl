⍝ The bit operations take integers: a double is a domain error at the name.
X ← 1.5 2
Y ← X ⎕INT32AND 3

⍝ test: ⎕INT32AND of doubles is refused
⍝ error: err_bits.apl:3:7:
⍝ error: domain error: ⎕INT32AND needs integers, found double and int
