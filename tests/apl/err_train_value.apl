⍝ A value inside a parenthesised train (Dyalog's (A g h) fork) is not in
⍝ the subset: (1+⊢) reads as the value 1+⊢, which lacks its right argument.
r ← (1+⊢) 3

⍝ test: a value in a train
⍝ error: err_train_value.apl:3:9:
⍝ error: expected a value
