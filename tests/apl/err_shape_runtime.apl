⍝ The shape of ⍴ fixes the rank of the result, so its length must be known
⍝ when compiling; (⍳+/V)⍴X with V computed at run time is refused at ⍴.
V ← (⍳5) > 3
X ← ⍳6
(⍳+/V)⍴X

⍝ test: a shape of run-time length
⍝ error: err_shape_runtime.apl:5:7:
⍝ error: must be known when compiling
