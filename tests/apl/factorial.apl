⍝ ! (docs/apl.md §5, M6): monadic x! = Γ(x+1), exact products on the
⍝ integers, Γ between them; dyadic k!n the binomial, ISO APL's table on
⍝ negative integers (2!¯3 is 6, ¯5!¯3 is 6, ¯3!¯5 and ¯3!2 are 0) and the
⍝ Γ quotient elsewhere (a pole of the denominator gives 0); scalar
⍝ extension, a matrix, a reduction (identity 1) and + over !. Values from
⍝ tests/apl/m6_reference.py (Python's math.factorial, math.gamma, math.comb).
⎕← !0 1 2 3 4 5 10
⎕← !0.5 2.5 ¯0.5
⎕← !20
⎕← !2 2⍴1 3 5 7
⎕← 2!5
⎕← 0 1 2 3 4 5!5
⎕← 3!2 3 4 10
⎕← 2 ¯3 ¯5 ¯3!¯3 ¯5 ¯3 2
⎕← 0.5 2.5 ¯1!2 1.5 0.5
⎕← !/3 2
⎕← 50!100
+/!⍳5

⍝ test: ! monadic and dyadic on every target
⍝ output: [1, 1, 2, 6, 24, 120, 3628800]
⍝ output: [0.88622692545275805, 3.3233509704478421, 1.7724538509055159]
⍝ output: 2.43290200817664e+18
⍝ output: [[1, 6], [120, 5040]]
⍝ output: 10
⍝ output: [1, 5, 10, 10, 5, 1]
⍝ output: [0, 1, 4, 120]
⍝ output: [6, 0, 6, 0]
⍝ output: [1.6976527263135501, 0, 0]
⍝ output: 0
⍝ output: 1.008913445455642e+29
⍝ output: 153
