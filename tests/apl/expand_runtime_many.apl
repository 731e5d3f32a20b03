⍝ Expand's mask computed at run time with more ones (4) than items (2): a
⍝ length error found while the program runs, at the ⍀ (the first axis of a
⍝ matrix), on every target; never an index out of range.
x ← 3 7 1 9 5
(x>2)⍀2 2⍴⍳4

⍝ test: too many ones, at run time
⍝ error: expand_runtime_many.apl:5:6: error: length error: 4 where 2 are needed
