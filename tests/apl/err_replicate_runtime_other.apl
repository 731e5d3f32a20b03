⍝ Replicate of a vector whose length is known only at run time by counts
⍝ whose length is another run-time length (two separate compressions, even
⍝ by one mask): clift cannot tell the two lengths equal when compiling
⍝ (SPEC §3.4: two unpacks are different rigid lengths), and the lowering
⍝ has no run-time length check for it: refused at the /, where APL would
⍝ compare the lengths at run time (docs/apl.md §3.2).
V ← 3 8 1 9 7 2
C ← (V>2)/V
(1+C>7)/(V>2)/1.5 2.5 3.5 4.5 5.5 6.5

⍝ test: counts of another run-time length
⍝ error: err_replicate_runtime_other.apl:9:8:
⍝ error: not supported yet: replicate of an array whose length is known only at run time by counts of another length
