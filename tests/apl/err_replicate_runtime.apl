⍝ Counts computed at run time whose size has no bound known when compiling
⍝ (⌊ of a binomial: the range analysis, tail/lower_range.c, has no rule
⍝ for dyadic !) are refused at the counts, naming the first operation with no
⍝ range (the ! at 7:9): the result's length needs a bound (docs/apl.md
⍝ §5).
V ← 5 6 7
C ← 1+⌊2!V
C/V

⍝ test: run-time counts with no bound
⍝ error: err_replicate_runtime.apl:8:1:
⍝ error: not supported yet: replicate by counts computed at run time whose size is not bounded
⍝ error: no range is known for the value computed at 7:9
