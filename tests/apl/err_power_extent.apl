⍝ ⍣ with a function that drops a row of a matrix: the rank is kept, the
⍝ extents are not (found when lowering, reported at ⍣).
M ← 3 2⍴⍳6
V ← ({1↓⍵}⍣2) M

⍝ test: power with a function that shortens a matrix is refused
⍝ error: err_power_extent.apl:4:11:
⍝ error: must keep its argument's shape
