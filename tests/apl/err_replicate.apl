⍝ Replicate with 3 counts for a vector of 4: a length error at the /.
V ← 5 6 7 8
2 0 1/V

⍝ test: counts and items differ in number
⍝ error: err_replicate.apl:3:6:
⍝ error: length error
