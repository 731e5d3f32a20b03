⍝ bench/easter_gpu.apl: easter.apl at the size of §3.5.6 (Table 3.6): N = 10⁷
⍝ years, 1 … 3000 repeated. Its value is the sum of the Easter days N (Easter is
⍝ March N).
easter ← {
  G ← 1+19|⍵                  ⍝ golden number
  C ← 1+⌊⍵÷100                ⍝ century
  X ← (⌊3×C÷4)-12             ⍝ leap years dropped so far
  Z ← (⌊(5+8×C)÷25)−5         ⍝ correction for the moon's orbit (− is U+2212)
  D ← (⌊5×⍵÷4)-X+10           ⍝ March ((-D) mod 7) is a Sunday
  E0 ← 30|(11×G)+20+Z-X       ⍝ epact
  E ← E0+(E0=24)∨(E0=25)∧G>11
  N0 ← 44-E                   ⍝ full moon: March N0
  N1 ← N0+30×N0<21
  N1+7-7|D+N1                 ⍝ the Sunday after it
}
N ← 10000000
Y ← 1+3000|¯1+⍳N
+/easter¨Y

⍝ test: N = 10000000
⍝ output: 394073221
