⍝ errors/recursion_named.apl: a named function that calls itself by name is
⍝ recursion, outside the subset. The error is at the call's name in the body.
sum ← {(⊃⍵)+sum 1↓⍵}
sum 1 2 3

⍝ test: a function calling itself by name is refused
⍝ error: recursion_named.apl:3:13:
⍝ error: recursion
