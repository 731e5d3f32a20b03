⍝ A compress whose mask has another length than the vector.
V ← ⍳5
(1 0 1)/V

⍝ test: a mask of 3 for a vector of 5
⍝ error: err_length.apl:3:8:
⍝ error: length error
