⍝ bench/gpu/f29/in.apl — F29 (run.sh): one part of sobol_pi_gpu.apl as a vector,
⍝ written with -o to compare element by element.
N ← 10000000
B ← 24
D ← 30
M1 ← D⍴1
M2 ← 1 3 5 15 17 51 85 255 257 771 1285 3855 4369 13107 21845 65535 65537 196611 327685 983055 1114129 3342387 5570645 16711935 16843009 50529027 84215045 252645135 286331153 858993459
dirs ← {2|⌊((B↑⍵)×2*D-⍳B)∘.÷2*D-⍳D}
I ← 2|⌊(⍳N)∘.÷2*¯1+⍳B
coord ← {(I≠.∧dirs ⍵)+.×2*-⍳D}
X ← coord M1
Y ← coord M2
1≥(X×X)+Y×Y
