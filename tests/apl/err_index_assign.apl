⍝ Indexed assignment is not in the subset (TAIL has no update); the error is
⍝ at the ←.
V ← ⍳4
V[2] ← 5
V

⍝ test: A[i]← is refused
⍝ error: err_index_assign.apl:4:6:
⍝ error: not in the subset
