⍝ APL evaluates right to left with no precedence: 2×3+4 is 2×(3+4).
⍝ Statements end at newlines and at ⋄; ⎕← prints in order.
⎕← 2×3+4 ⋄ ⎕← 10-4-3
(2×3)+4

⍝ test: right to left, ⋄, ⎕← in order
⍝ output: 14
⍝ output: 9
⍝ output: 10
