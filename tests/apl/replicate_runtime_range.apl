⍝ Replicate by counts computed at run time whose range the lowering finds by
⍝ interval arithmetic (tail/lower_range.c, docs/apl.md §3.2): ⌊ and ⌈ of a
⍝ division (by a literal, a negative literal, a run-time divisor of one
⍝ sign), doubles (a literal times a mask, |, ⌈/ of a matrix's rows), ⌈ and ⌊
⍝ of a value with no range (an int's own range on that side), | by a
⍝ run-time left argument, | of doubles, ≢ of a compress result (0 to its bound), the
⍝ bit and, the monotone * ⍟, dyadic * of a
⍝ positive base, the bounded 1○, monadic ! of x ≥ 0 and the products ×/ ×\
⍝ (twelfth session; refused before). The counts' bound n·K is the result's allocation. Expected
⍝ values: tests/apl/select_reference.py.
V ← 5 6 7
W ← ⌊!3 4 5
B ← V>5
⎕← (⌊V÷2)/V
⎕← (⌈V÷3)/V
⎕← (⌊V÷¯2)/V
⎕← (0⌈3⌊W)/V
⎕← (V|W)/V
⎕← (⌊(2×V)÷1+⍳3)/V
⎕← (⌊2.5×B)/V
C ← (V>5)/V
⎕← (≢C)/V
⎕← (W ⎕INT32AND 3)/V
M ← 2 3⍴1.5 2.5 0.5 3 1 2
⎕← (⌊⌈/M)/4 8
⎕← (⌊|¯1.5 2.5 ¯0.5)/V
⎕← (2|⌊V÷2)/V
⎕← (⌊1.5|V÷4)/V
⎕← (⌊*V÷3)/V
⎕← (⌊⍟V)/V
⎕← (⌊2+2×1○V)/V
⎕← (⌊2*V-4)/V
⎕← (⌊V*0.5)/V
⎕← (⌊!V-4)/V
⎕← (⌊!V÷4)/V
⎕← (×/V-4)/V
⎕← (×\V-4)/V
⎕← (|×/4-V)/V
⎕← (⌊V÷2)/'abc'
⎕← (⌊V÷2)⌿3 2⍴⍳6
(⌊V÷3)/2 3⍴⍳6

⍝ test: run-time counts bounded by interval arithmetic, every target
⍝ output: [5, 5, 6, 6, 6, 7, 7, 7]
⍝ output: [5, 5, 6, 6, 7, 7, 7]
⍝ output: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
⍝ output: [5, 5, 5, 6, 6, 6, 7, 7, 7]
⍝ output: [5, 7]
⍝ output: [5, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7]
⍝ output: [6, 6, 7, 7]
⍝ output: [5, 5, 6, 6, 7, 7]
⍝ output: [5, 5]
⍝ output: [4, 4, 8, 8, 8]
⍝ output: [5, 6, 6]
⍝ output: [6, 7]
⍝ output: [5]
⍝ output: [5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
⍝ output: [5, 6, 7]
⍝ output: [6, 7, 7, 7]
⍝ output: [5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7]
⍝ output: [5, 5, 6, 6, 7, 7]
⍝ output: [5, 6, 6, 7, 7, 7, 7, 7, 7]
⍝ output: [5, 6, 7]
⍝ output: [5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7]
⍝ output: [5, 6, 6, 7, 7, 7, 7, 7, 7]
⍝ output: [5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7]
⍝ output: aabbbccc
⍝ output: [[1, 2], [1, 2], [3, 4], [3, 4], [3, 4], [5, 6], [5, 6], [5, 6]]
⍝ output: [[1, 2, 2, 3, 3], [4, 5, 5, 6, 6]]
