⍝ Reductions with the non-associative functions fold from the right (APL):
⍝ -/1 2 3 4 is 1-(2-(3-4)), ÷/2 4 8 is 2÷(4÷8), |/ is a residue of residues.
⍝ The vectors are computed (⍳, a strand of doubles) so the folds run on
⍝ every target, not only at compile time.
⎕← -/ ⍳4
⎕← -/ 1.5 2 3.25
⎕← ÷/ 2 4 8
⎕← -/ 10 - ⍳5
-/ 7

⍝ test: right folds
⍝ output: -2
⍝ output: 2.75
⍝ output: 4
⍝ output: 7
⍝ output: 7
