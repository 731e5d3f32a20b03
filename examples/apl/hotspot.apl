⍝ hotspot.apl: Rodinia's HotSpot (the thesis's §3.5.3 application
⍝ benchmark): the temperature of a chip's R×C grid of cells, K steps of
⍝   T ← T + (step÷cap) × P + (TN+TS-2T)÷ry + (TE+TW-2T)÷rx + (amb-T)÷rz
⍝ with Rodinia's constants (a 0.016 m × 0.016 m × 0.5 mm silicon chip, ambient
⍝ 80) and its borders: a neighbour outside the grid is the cell itself (the
⍝ first or last row or column repeated). P (power) and T0 (initial
⍝ temperature) are generated here instead of read from Rodinia's files.
⍝ The grid is 6×8 here (not square, so that rows and columns cannot be
⍝ confused); bench/hotspot.apl is the benchmark's 512×512, 360 steps.
R ← 6 ⋄ C ← 8 ⋄ K ← 10
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
T

⍝ test: a 6×8 grid, 10 steps
⍝ tolerance: 1e-10
⍝ output: [[322.33856894801528, 324.08726314438366, 325.83610307044461, 327.58494293395421, 329.33244928696973, 320.84030767098682, 322.58829410680102, 324.33698827116081], [323.08804021253684, 324.83674065666384, 326.58558679871163, 328.33357948798368, 319.84144410986761, 321.58895671876331, 323.33780282480183, 325.08650326892752], [323.8375466101287, 325.5862533021467, 327.33510569231794, 329.08310458358125, 320.59049542549309, 322.33838811107137, 324.08724049726015, 325.8359471892781], [324.58705300846174, 326.33576594836939, 328.08462455065853, 329.83214965182242, 321.33992056427201, 323.08792574357216, 324.83678437963027, 326.58549731953929], [325.33655940605274, 327.08527856184469, 328.83328998380517, 320.34106714437979, 322.088598493669, 323.83746334332602, 325.58622205607139, 327.3349412398897], [326.0860306705743, 327.83475607014185, 329.58266750238596, 321.09007707841505, 322.83809470993936, 324.58685964189488, 326.33573080209737, 328.08445623765721]]
