⍝ operator.apl: dyadic operators written as dfns with ⍺⍺ ⍵⍵ (docs/apl.md §5,
⍝ M5): primitive operands (applied, reduced with ⍺⍺/), a dfn operand, a
⍝ named function operand, monadic use, an operator reading a global, an
⍝ operator whose operand is a derived function (+/), and ⍴⍴, ⊃.
twice ← {⍵⍵ ⍺⍺ ⍵}
fold ← {⍺⍺/⍺ ⍵⍵ ⍵}
sq ← {⍵×⍵}
K ← 100
addk ← {K+⍺⍺ ⍵⍵ ⍵}
⎕← - twice | ¯3 4 ¯5
⎕← 1 2 3 + fold × 4 5 6
⎕← 1 2 3 ⌈ fold - 3 2 1
⎕← 1 2 3 + fold {⍺+2×⍵} 1 1 1
⎕← sq twice sq 2
⎕← +/ addk ⌽ 2 3⍴⍳6
⎕← ⍴⍴2 3 4⍴0
⊃⍴⍴⍳5

⍝ test: dyadic operators
⍝ output: [3, 4, 5]
⍝ output: 32
⍝ output: 2
⍝ output: 12
⍝ output: 16
⍝ output: [106, 115]
⍝ output: [3]
⍝ output: 1
