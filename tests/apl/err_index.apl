⍝ An index beyond the vector's length, known when compiling (⎕IO = 1).
'ab'[3]

⍝ test: index 3 of a vector of 2
⍝ error: err_index.apl:2:6:
⍝ error: index error
