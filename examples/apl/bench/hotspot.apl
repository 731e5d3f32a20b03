⍝ bench/hotspot.apl: hotspot.apl at the size of Rodinia's paper and of the
⍝ thesis's benchmarks (§3.5.3, Table 3.6): a 512×512 grid, 360 steps. Its value
⍝ is the sum of the final temperatures.
R ← 512 ⋄ C ← 512 ⋄ K ← 360
chipH ← 0.016 ⋄ chipW ← 0.016 ⋄ tChip ← 0.0005
kSI ← 100 ⋄ specHeat ← 1.75E6 ⋄ factor ← 0.5 ⋄ maxPD ← 3E6 ⋄ precision ← 0.001 ⋄ amb ← 80
gH ← chipH÷R ⋄ gW ← chipW÷C
cap ← factor×specHeat×tChip×gW×gH
rx ← gW÷2×kSI×tChip×gH
ry ← gH÷2×kSI×tChip×gW
rz ← tChip÷kSI×gH×gW
step ← precision÷maxPD÷factor×tChip×specHeat
T0 ← 320+0.25×41|(⍳R)∘.{(3×⍺)+7×⍵}⍳C
P ← 0.01×17|(⍳R)∘.×⍳C
hot ← {
  TN ← (1↑⍵)⍪¯1↓⍵             ⍝ north neighbours: the first row repeated
  TS ← (1↓⍵)⍪¯1↑⍵             ⍝ south: the last row repeated
  TW ← (((≢⍵),1)↑⍵),0 ¯1↓⍵    ⍝ west: the first column repeated
  TE ← (0 1↓⍵),((≢⍵),¯1)↑⍵    ⍝ east: the last column repeated
  ⍵+(step÷cap)×P+((TN+TS-2×⍵)÷ry)+((TE+TW-2×⍵)÷rx)+(amb-⍵)÷rz
}
T ← (hot⍣K) T0
+/,T

⍝ test: 512×512, 360 steps
⍝ tolerance: 1e-9
⍝ output: 86071444.555925623
