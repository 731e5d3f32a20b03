⍝ f⍣n of a scalar (issue 13 item 3): iterated as an array of one item
⍝ (clift's iterate needs an array; tail/lower_ops.c lower_power); refused
⍝ before. Known and run-time counts, ints and doubles, a count of 0, a dfn
⍝ that reads a global. Expected values by hand: 1 doubled 10 times is 1024;
⍝ 5 + 1 twice (the count 2 is +/V>1) is 7; 2.5 halved 3 times is 0.3125;
⍝ 7 after 0 steps is 7; 3 + +/V = 9 after one step, 15 after two.
V ← 3 1 2
f ← {⍵+1}
⎕← ({⍵×2}⍣10) 1
⎕← (f⍣(+/V>1)) 5
⎕← ({⍵÷2}⍣3) 2.5
⎕← (f⍣0) 7
({⍵++/V}⍣2) 3

⍝ test: power of a scalar, every target
⍝ output: 1024
⍝ output: 7
⍝ output: 0.3125
⍝ output: 7
⍝ output: 15
