⍝ signal.apl: Example 3.1 of the thesis (seed 003, chapter 3), after the APEX
⍝ benchmark suite's signal program.
⍝   diff ⍵    the successive differences of ⍵: ⍵[i]-⍵[i-1], one element shorter
⍝   signal ⍵  the change of 0,⍵ relative to ⍵ (plus 0.01), times 50, clamped
⍝             to the interval ¯50 … 50
⍝ The program's value is the sum of the signal of a 15-element int vector:
⍝ ints become doubles at ÷, and +/ of doubles starts from 0.0 (the thesis's
⍝ Figure 3.1 shows the TAIL it compiles to).
diff ← {1↓⍵-¯1⌽⍵}
signal ← {¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
+/ signal 9 8 6 8 7 4 4 3 2 2 1 2 4 5 6

⍝ test: the thesis's value (Example 3.1)
⍝ output: -27.870466000131344
