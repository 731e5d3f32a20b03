⍝ Compress and replicate of a vector whose length is known only at run time
⍝ (a compress or replicate result), by a mask or counts of that length: a
⍝ bound from the argument's bound (docs/apl.md §3.2): a compress result is
⍝ at most what it was compressed from; a replicate of N items (N the
⍝ argument's bound) by counts of at most K is at most N·K, its sums and
⍝ binary search over the run-time number of counts (0 counts: an empty
⍝ result). Was refused ("… of an array whose length is known only at run
⍝ time"). Expected values: tests/apl/select_reference.py.
V ← 3 8 1 9 7 2
C ← (V>2)/V
⎕← (C<9)/C
D ← (C<9)/C
⎕← +/D
⎕← ≢D
⎕← (1+C>7)/C
⎕← (C-8)/C
E ← (V>20)/V
⎕← (1+E>7)/E
R ← (1+C>7)/C
⎕← (R>8)/R
⎕← (1+R>8)/R
W ← (V>2)/'abcdef'
⎕← (1+W='d')/W
⎕← (1+C>7)/C×0.5
≢R

⍝ test: compress and replicate of run-time-length vectors, every target
⍝ output: [3, 8, 7]
⍝ output: 18
⍝ output: 3
⍝ output: [3, 8, 8, 9, 9, 7]
⍝ output: [0, 0, 0, 0, 0, 9, 0]
⍝ output: []
⍝ output: [9, 9]
⍝ output: [3, 8, 8, 9, 9, 9, 9, 7]
⍝ output: abdde
⍝ output: [1.5, 4, 4, 4.5, 4.5, 3.5]
⍝ output: 6
