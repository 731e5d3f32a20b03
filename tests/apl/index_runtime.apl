⍝ An index beyond a compress result known only at run time: the same index error as when compiling, 1-based, at the index, on every target
v ← 5 7
c ← (v>6)/v
c[2]

⍝ test: index 2 of the one item kept
⍝ error: index_runtime.apl:4:3: error: index error: 2 is not an index of an array of length 1 (⎕IO = 1)
