⍝ errors/power_shape.apl: ⍣ iterates a function whose result must have its
⍝ argument's shape (TAIL's power is (τ → τ) → int → τ → τ); {⍵,0} makes the
⍝ vector one longer at each step. The error is at ⍣.
({⍵,0}⍣3) 1 2

⍝ test: power with a function that lengthens its argument is refused
⍝ error: power_shape.apl:4:7:
⍝ error: must keep its argument's shape
