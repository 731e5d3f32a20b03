⍝ Scans by a function that is not associative, nested: each -\ reads its
⍝ argument's items at one place, so the code grows linearly with the nesting
⍝ (fuzz F6: two places doubled it at each level; 16 levels over 9 8 took 3.3 s
⍝ and 1.3 GB to compile, the fuzzer's input 60 s and 23 GB). At the top of
⍝ the program each level's argument is written to memory before the folds read
⍝ it (tail/lower_gather.c lower_scan; the interpreter stores each level too):
⍝ the work is n²·levels, not n^levels (8 levels over ⍳40 ran past 120 s on c).
⍝ Expected values by Python's right fold of each prefix, applied 4, 16, 8 and 20 times.
⎕← -\-\-\-\5 3 8 1 9 2
⎕← -\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\9 8 7
⎕← -\-\-\-\-\-\-\-\⍳40
-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\9 8

⍝ test: 4, 16, 8 and 20 levels
⍝ output: [5, 3, 18, 7, 40, 13]
⍝ output: [9, 8, 79]
⍝ output: [1, 2, 7, 12, 27, 42, 77, 112, 182, 252, 378, 504, 714, 924, 1254, 1584, 2079, 2574, 3289, 4004, 5005, 6006, 7371, 8736, 10556, 12376, 14756, 17136, 20196, 23256, 27132, 31008, 35853, 40698, 46683, 52668, 59983, 67298, 76153, 85008]
⍝ output: [9, 8]
