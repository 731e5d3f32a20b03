⍝ Counts computed at run time whose size has no bound known when compiling
⍝ (⌊ of a division: the lowering keeps no range for doubles) are refused at
⍝ the counts: the result's length needs a bound (docs/apl.md §3.2).
V ← 5 6 7
C ← ⌊V÷2
C/V

⍝ test: run-time counts with no bound
⍝ error: err_replicate_runtime.apl:6:1:
⍝ error: not supported yet: replicate by counts computed at run time whose size is not bounded
