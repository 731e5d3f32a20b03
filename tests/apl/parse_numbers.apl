⍝ Numbers: ¯ is the sign of a literal, - and − (U+2212) are subtraction;
⍝ 1E¯3 and 2.5E2 are doubles; 0 and 1 are booleans (printed 0 and 1).
⎕← ¯3 − 2
⎕← 5 - ¯2
⎕← 1E¯3 + 2.5E2
⎕← 1 0 1
¯1.5 2 ¯3

⍝ test: signs, exponents, booleans
⍝ output: -5
⍝ output: 7
⍝ output: 250.001
⍝ output: [1, 0, 1]
⍝ output: [-1.5, 2, -3]
