⍝ bench/gpu/f29/sobol_parts.apl — tests/difftest/FINDINGS.md F29: the parts of
⍝ examples/apl/bench/sobol_pi_gpu.apl, each summed to one exact number (every
⍝ value here is a multiple of 2*-60 below 2, so the sums are exact in any order),
⍝ to find which part differs on the GPU. Expected values: from openmp and
⍝ PoCL, which agree with NumPy's count 7854017.
N ← 10000000
B ← 24
D ← 30
M1 ← D⍴1
M2 ← 1 3 5 15 17 51 85 255 257 771 1285 3855 4369 13107 21845 65535 65537 196611 327685 983055 1114129 3342387 5570645 16711935 16843009 50529027 84215045 252645135 286331153 858993459
dirs ← {2|⌊((B↑⍵)×2*D-⍳B)∘.÷2*D-⍳D}
I ← 2|⌊(⍳N)∘.÷2*¯1+⍳B
coord ← {(I≠.∧dirs ⍵)+.×2*-⍳D}
⎕← +/2*-⍳D
⎕← +/+/dirs M1
⎕← +/+/dirs M2
⎕← +/+/I
X ← coord M1
Y ← coord M2
⎕← +/X
⎕← +/Y
⎕← +/X×X
⎕← +/Y×Y
+/1≥(X×X)+Y×Y

⍝ openmp here (2026-11-26, a9585a5's compiler; the x×x sums are rounded, so
⍝ their last digits may differ between targets; the others are exact):
⍝ 0.99999999906867743 / 24 / 135 / 114434632 / 4999997.1351867318 /
⍝ 5000000.9217075706 / 3333330.4630403686 / 3333334.0103494511 / 7854017
