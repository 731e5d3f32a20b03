⍝ errors/power_rank.apl: ⍣ with a function that changes its argument's rank
⍝ (a vector of 4 becomes a 2×2 matrix). The error is at ⍣.
V ← ⍳4
({2 2⍴⍵}⍣2) V

⍝ test: power with a function that reshapes a vector into a matrix is refused
⍝ error: power_rank.apl:4:9:
⍝ error: must keep its argument's shape
