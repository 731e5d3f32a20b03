⍝ Dyadic ∊ (membership) and ~ (without), issue 13 (refused before): A∊B is
⍝ each(fn x => ∨/x=,B, A), A~B is (~A∊B)/A (a compress by a mask computed at
⍝ run time); a scalar A, a matrix B (ravelled), chars, an empty result, a
⍝ left argument of run-time length (a compress result). Expected values by
⍝ hand: V is 1 2 3 2 5; (V>1)/V is 2 3 2 5.
V ← 1 2 3 2 5
M ← 2 2⍴1 2 3 4
⎕← V∊2 3
⎕← 3∊V
⎕← 7∊V
⎕← V∊M
⎕← V~2 5
⎕← V~V
⎕← 'hello'∊'lo'
⎕← 'hello world'~' o'
⎕← ((V>1)/V)∊3 5
⎕← +/((V>1)/V)~2
(V>2)~1

⍝ test: membership and without, every target
⍝ output: [0, 1, 1, 1, 0]
⍝ output: 1
⍝ output: 0
⍝ output: [1, 1, 1, 1, 0]
⍝ output: [1, 3]
⍝ output: []
⍝ output: [0, 0, 1, 1, 1]
⍝ output: hellwrld
⍝ output: [0, 1, 0, 1]
⍝ output: 8
⍝ output: [0, 0, 0]
