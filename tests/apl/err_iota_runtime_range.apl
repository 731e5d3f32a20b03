⍝ ⍳ of a count computed at run time with no range known when compiling (a
⍝ binomial, which the range analysis has no rule for): refused at the count,
⍝ naming the value with no range (docs/apl.md §5).
V ← 3 1 2 5
⍳⌊+/2!V

⍝ test: no bound
⍝ error: err_iota_runtime_range.apl:5:2:
⍝ error: not supported yet: iota of a count computed at run time whose size is not bounded
