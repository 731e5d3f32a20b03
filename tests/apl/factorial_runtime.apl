⍝ ! of a negative integer computed while the program runs is a domain error
⍝ reported at run time at the ! on every target (clift's factorial checks
⍝ it, prim/special.h); so is k!n with n a negative integer and k not an
⍝ integer. (A negative integer known when compiling is refused then:
⍝ err_factorial.apl.)
N ← (⍳3)-2
!N

⍝ test: the factorial of ¯1, found at run time
⍝ error: factorial_runtime.apl:7:1: error: domain error: factorial of the negative integer -1
