⍝ ⍳ of a count computed at run time (issue 13 item 3): a vector of run-time
⍝ length, bounded when compiling by the count's range (tail/lower_range.c),
⍝ lowered to clift's (iota (min n hi)), whose min gives the bound
⍝ (docs/apl.md §5); then reduced, reversed, scaled, measured, and an empty
⍝ one. Expected values by hand: V>1 has 3 ones, ⌈/V is 5, V>9 none.
V ← 3 1 2 5
n ← +/V>1
⎕← ⍳n
⎕← +/⍳n
⎕← ⍴⍳n
⎕← 2×⍳n
⎕← ⍳+/V>9
⎕← ⌽⍳⌈/V
+/⍳⌈/V

⍝ test: run-time iota, every target
⍝ output: [1, 2, 3]
⍝ output: 6
⍝ output: [3]
⍝ output: [2, 4, 6]
⍝ output: []
⍝ output: [5, 4, 3, 2, 1]
⍝ output: 15
