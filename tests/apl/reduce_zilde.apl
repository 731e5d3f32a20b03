⍝ A reduction of the empty vector ⍬ is the function's identity element
⍝ (docs/apl.md §2.4): ⌈ the least int, ⌊ the greatest, + 0, × 1. ⍬ is an
⍝ int vector here (Dyalog's ⌈/⍬ is the least double, ¯1.797…E308).
⎕← ⌈/ ⍬
⎕← ⌊/ ⍬
⎕← +/ ⍬
⎕← ×/ ⍬
⎕← ⌈/ ⍬ , 5
≢ ⍬

⍝ test: identities of ⍬
⍝ output: -2147483648
⍝ output: 2147483647
⍝ output: 0
⍝ output: 1
⍝ output: 5
⍝ output: 0
