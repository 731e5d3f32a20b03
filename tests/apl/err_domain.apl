⍝ ∧ of integers other than 0 and 1 is a domain error.
2 3 ∧ 1 0

⍝ test: ∧ needs booleans
⍝ error: err_domain.apl:2:5:
⍝ error: domain error
