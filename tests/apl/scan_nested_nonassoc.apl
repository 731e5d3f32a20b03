⍝ Scans by a function that is not associative, nested: each -\ reads its
⍝ argument's items at one place, so the code grows linearly with the nesting
⍝ (fuzz F6: two places doubled it at each level; 16 levels over 9 8 took 3.3 s
⍝ and 1.3 GB to compile, the fuzzer's input 60 s and 23 GB). The compiled
⍝ targets still compute each level's items again where the next reads them
⍝ (work n^levels; the interpreter stores each level), so the sizes stay small.
⍝ Expected values by Python's right fold of each prefix, applied 4, 16 and 20 times.
⎕← -\-\-\-\5 3 8 1 9 2
⎕← -\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\9 8 7
-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\-\9 8

⍝ test: 4, 16 and 20 levels
⍝ output: [5, 3, 18, 7, 40, 13]
⍝ output: [9, 8, 79]
⍝ output: [9, 8]
