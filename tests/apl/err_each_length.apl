⍝ Dyadic ¨ of vectors of different lengths is a length error at ¨.
r ← 1 2 {⍺−⍵}¨ 1 2 3

⍝ test: length error of dyadic ¨
⍝ error: err_each_length.apl:2:14:
⍝ error: length error
