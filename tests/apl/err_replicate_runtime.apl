⍝ Counts computed at run time give a length known only at run time: refused
⍝ ("must be known when compiling") at the counts.
V ← 5 6 7
C ← 1+V>5
C/V

⍝ test: run-time counts
⍝ error: err_replicate_runtime.apl:5:1:
⍝ error: must be known when compiling
