⍝ Expand's mask computed at run time with fewer ones (2) than items (3): a
⍝ length error found while the program runs (clift's checkLength), at the \,
⍝ on every target; never a wrong answer.
x ← 3 7 1 9 5
(x>5)\10 20 30

⍝ test: too few ones, at run time
⍝ error: expand_runtime_few.apl:5:6: error: length error: 2 where 3 are needed
