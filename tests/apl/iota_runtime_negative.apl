⍝ ⍳ of a negative count computed at run time: the run-time error of clift's
⍝ iota at the ⍳ (its range, ¯5 to ¯1, bounds the result by 0 items).
V ← 3 1 2 5
⍳(+/V>1)-5

⍝ test: a negative run-time count
⍝ error: iota_runtime_negative.apl:4:1:
⍝ error: iota: the length -2 is negative
