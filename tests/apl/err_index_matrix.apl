⍝ An index beyond an axis of a matrix, known when compiling: an index error
⍝ at that index (the second axis has 3 items).
M ← 2 3⍴⍳6
M[1;4]

⍝ test: an index out of range on the second axis
⍝ error: err_index_matrix.apl:4:5:
⍝ error: index error
