⍝ A dfn used recursively through ¨: ∇ is refused wherever it appears.
count ← {+/∇¨⍳⍵}
count 5

⍝ test: ∇ under ¨ is recursion
⍝ error: err_recursion.apl:2:12:
⍝ error: recursion
