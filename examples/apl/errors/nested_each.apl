⍝ errors/nested_each.apl: ¨ with a function whose result is not a scalar
⍝ would make a nested array. The error is at ¨.
V ← {⍳⍵}¨1 2 3
+/V

⍝ test: each with a vector-valued function is refused
⍝ error: nested_each.apl:3:9:
⍝ error: nested array
