⍝ | is APL's residue (floor modulo): the result has the sign of the left
⍝ argument, and 0|y is y. Literal operands are folded at compile time, the
⍝ vectors below are computed on each target.
⎕← 3 | ¯7 ¯6 ¯5 5 7
⎕← ¯3 | 7 ¯7 6 1
⎕← 0 | ¯7 7
⎕← 3|¯7
⎕← ¯3|7
⎕← 2.5 | ¯7 7 ¯2.5
⎕← ¯2.5 | 7 ¯7
⎕← 1 | ¯2.25 2.25
| ¯3 4 ¯5.5

⍝ test: residue of negative ints and doubles
⍝ output: [2, 0, 1, 2, 1]
⍝ output: [-2, -1, 0, -2]
⍝ output: [-7, 7]
⍝ output: 2
⍝ output: -2
⍝ output: [0.5, 2, 0]
⍝ output: [-0.5, -2]
⍝ output: [0.75, 0.25]
⍝ output: [3, 4, 5.5]
