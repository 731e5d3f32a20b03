⍝ bench/sobol_pi_cpu.apl: sobol_pi.apl at the size of the thesis's Table 3.1 (N
⍝ = 10.000). It prints the count of points in the quarter circle; its value is
⍝ π's estimate.
N ← 10000
B ← 14
D ← 30                        ⍝ bits of a coordinate
M1 ← D⍴1
M2 ← 1 3 5 15 17 51 85 255 257 771 1285 3855 4369 13107 21845 65535 65537 196611 327685 983055 1114129 3342387 5570645 16711935 16843009 50529027 84215045 252645135 286331153 858993459
dirs ← {2|⌊((B↑⍵)×2*D-⍳B)∘.÷2*D-⍳D}   ⍝ B×D: the bits of v_k, most significant first
I ← 2|⌊(⍳N)∘.÷2*¯1+⍳B                 ⍝ N×B: the bits of i, least significant first
coord ← {(I≠.∧dirs ⍵)+.×2*-⍳D}
X ← coord M1
Y ← coord M2
H ← +/1≥(X×X)+Y×Y
⎕← H
4×H÷N

⍝ test: N = 10000
⍝ output: 7855
⍝ output: 3.1419999999999999
