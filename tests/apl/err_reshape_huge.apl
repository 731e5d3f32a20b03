⍝ A reshape to more elements than an int counts is refused at the ⍴, checked
⍝ at every extent: the product of these overflowed 64 bits (undefined
⍝ behaviour in the compiler; a fuzz finding of the soak of f4ae0e0).
A ← 3 4 ⍴ 1 2 3
2000000000 2000000000 2000000000 ⍴ A

⍝ test: three extents of 2·10^9
⍝ error: err_reshape_huge.apl:5:34:
⍝ error: reshape: the result's elements do not fit in an int
