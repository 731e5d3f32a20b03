⍝ dot.apl: the general inner product as a dyadic operator (the thesis's
⍝ Figure 3.5, after Guibas and Wyatt): both arguments are replicated into
⍝ arrays of rank ρ1+ρ2+1 (⍴ with cyclic extension), transposed (dyadic ⍉) so
⍝ that the summed axis is last in both, combined with ⍵⍵ and reduced with ⍺⍺
⍝ along the last axis. It works for any ranks: A dot B has the shape
⍝ (¯1↓⍴A),1↓⍴B.
⍝ Dyadic ⍉ is APL's: Z⍉X moves axis i of X to axis Z[i] of the result.
dot ← {
  WA ← (1↓⍴⍵),⍴⍺
  KA ← (⊃⍴⍴⍺)-1
  VA ← ⍳⊃⍴WA
  ZA ← (KA⌽¯1↓VA),¯1↑VA
  TA ← ZA⍉WA⍴⍺              ⍝ replicate, transpose
  WB ← (¯1↓⍴⍺),⍴⍵
  KB ← ⊃⍴⍴⍺
  VB ← ⍳⊃⍴WB
  ZB0 ← (-KB)↓KB⌽⍳⊃⍴VB
  ZB ← (¯1↓⍳KB),ZB0,KB
  TB ← ZB⍉WB⍴⍵              ⍝ replicate, transpose
  ⍺⍺/TA ⍵⍵ TB               ⍝ compute the final array
}
A ← 3 2⍴⍳5                  ⍝ the thesis's example input A
B ← ⍉A                      ⍝ and B
R ← A + dot × B
⎕← R
⎕← A +.× B                  ⍝ the built-in inner product agrees
⎕← A ⌈ dot + B              ⍝ max-plus
⎕← (2 3 2⍴⍳12) + dot × 2 4⍴⍳8   ⍝ rank 3 by rank 2: shape 2 3 4
×/ +/ R                     ⍝ the thesis's R2 (its Figure 3.5 shows 65780)

⍝ test: matrix product, max-plus, rank 3 by rank 2, the thesis's R2
⍝ output: [[5, 11, 7], [11, 25, 19], [7, 19, 26]]
⍝ output: [[5, 11, 7], [11, 25, 19], [7, 19, 26]]
⍝ output: [[4, 6, 6], [6, 8, 8], [6, 8, 10]]
⍝ output: [[[11, 14, 17, 20], [23, 30, 37, 44], [35, 46, 57, 68]], [[47, 62, 77, 92], [59, 78, 97, 116], [71, 94, 117, 140]]]
⍝ output: 65780
