⍝ Expand's mask must have as many 1s as the vector has items: 2 for 3 here,
⍝ a length error at the \.
1 0 1\5 6 7

⍝ test: too few ones in the mask
⍝ error: err_expand.apl:3:6:
⍝ error: length error
