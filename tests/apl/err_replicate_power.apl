⍝ Counts that are ⍵ itself inside f⍣n: the parameter stands for every
⍝ iterate, whose values the first one's range does not bound (4 4 4 after
⍝ 1 1 1 here), so no bound is known when compiling: refused at the counts,
⍝ never a result cut at the first iterate's bound (it printed 16 16 16, not
⍝ 52 52 52, before the parameter lost x's range).
x ← 1 1 1
f ← {⍵ + +/(⍵)/⍵}
(f⍣2) x

⍝ test: run-time counts from ⍵ under ⍣
⍝ error: err_replicate_power.apl:7:13:
⍝ error: not bounded when compiling
⍝ error: no range is known for the value computed at 8:3
