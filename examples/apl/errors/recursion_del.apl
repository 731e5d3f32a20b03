⍝ errors/recursion_del.apl: a dfn that calls itself (∇) is recursion, outside
⍝ the subset. The error is at ∇. (No guard: the subset has none; the program
⍝ is refused before it could run.)
fact ← {⍵×∇⍵-1}
fact 5

⍝ test: ∇ is refused
⍝ error: recursion_del.apl:4:11:
⍝ error: recursion
