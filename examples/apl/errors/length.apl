⍝ errors/length.apl: a scalar function of two vectors of different lengths.
⍝ The error is at the function (+).
1 2 3+4 5

⍝ test: vectors of lengths 3 and 2 are a length error
⍝ error: length.apl:3:6:
⍝ error: length
