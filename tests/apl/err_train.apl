⍝ A train is elaborated at each use: +/ of characters is a domain error
⍝ reported at the + of the train's definition (after the wide ←).
avg ← +/÷≢
avg 'abc'

⍝ test: domain error inside a named train
⍝ error: err_train.apl:3:7:
⍝ error: domain error
