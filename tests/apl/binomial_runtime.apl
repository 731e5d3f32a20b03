⍝ k!n with n a negative integer and k not an integer is a domain error (a
⍝ pole of Γ(n+1) that the denominator does not cancel), found at run time at
⍝ the ! on every target; the same n with an integer k is ISO APL's table.
N ← (⍳3)-2
⎕← 2!N
0.5!N

⍝ test: a pole of the binomial's numerator
⍝ output: [1, 0, 0]
⍝ error: binomial_runtime.apl:6:4: error: domain error: binomial 0.5!-1: n is a negative integer and k is not an integer
