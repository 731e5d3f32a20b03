⍝ ⍣ with a function that turns numbers into booleans: the type is not kept.
({⍵>1}⍣2) 1 2 3

⍝ test: power with a function that changes the type is refused
⍝ error: err_power_type.apl:2:7:
⍝ error: must keep its argument's type
