⍝ A replicate by counts known when compiling is a gather whose index vector is
⍝ a literal of the result's length: above 2^20 items it is refused at the /, at
⍝ once (fuzz F5: 11,004,352 items took 1.9 s and 390 MB to compile, and more
⍝ than the fuzzer's 10 s under ASan).
.0-2474/4448/451

⍝ test: 11,004,352 items
⍝ error: err_replicate_static_huge.apl:5:8:
⍝ error: not supported yet: replicate to 11004352 items (at most 1048576)
