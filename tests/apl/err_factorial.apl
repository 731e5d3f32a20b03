⍝ ! of a negative integer known when compiling is a domain error at the !.
X ← 3 ¯1 2
Y ← 1 + !X

⍝ test: !¯1 is refused with the reason
⍝ error: err_factorial.apl:3:9:
⍝ error: domain error: !¯1 (the factorial of a negative integer)
