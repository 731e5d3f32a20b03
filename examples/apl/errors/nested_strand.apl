⍝ errors/nested_strand.apl: a strand whose items are vectors is a nested
⍝ array, outside the subset (flat arrays only). The error is at the strand's
⍝ first item that is not a scalar.
X ← (1 2)(3 4)
+/X

⍝ test: a strand of vectors is refused
⍝ error: nested_strand.apl:4:5:
⍝ error: nested array
