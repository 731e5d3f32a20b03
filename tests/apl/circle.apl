⍝ Dyadic ○ with the circle functions clift's scalars give (values from
⍝ Python's math module: sqrt(1-x²), sin, cos, tan, sqrt(1+x²), |x|), on a
⍝ scalar, a vector and a matrix, ints converted; the function number may be
⍝ a name bound to a literal.
⎕← 0○0 0.5 ¯0.8
⎕← 1○0 1 2
⎕← 2○2
⎕← 3○0.5 ¯0.5
⎕← 4○0.75
k ← 2
⎕← k○○1
⎕← 9○¯3
⎕← 10○2 2⍴¯1.5 2 0 ¯4
1○0.5

⍝ test: circle functions on every target
⍝ output: [1, 0.8660254037844386, 0.5999999999999999]
⍝ output: [0, 0.8414709848078965, 0.9092974268256817]
⍝ output: -0.4161468365471424
⍝ output: [0.5463024898437905, -0.5463024898437905]
⍝ output: 1.25
⍝ output: -1
⍝ output: -3
⍝ output: [[1.5, 2], [0, 4]]
⍝ output: 0.479425538604203
