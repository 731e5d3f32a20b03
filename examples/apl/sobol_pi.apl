⍝ sobol_pi.apl: Monte-Carlo π from a two-dimensional Sobol sequence (the
⍝ thesis's §3.5.2 micro-benchmark "Sobol MC π").
⍝ Point i (1 … N) has the coordinates x = ⊕{k: bit k-1 of i is 1} v_k, where ⊕
⍝ is exclusive or and v_k = m_k×2*(D-k) are the D-bit direction numbers of a
⍝ dimension (the point's index taken directly, not in Gray-code order):
⍝   dimension 1: m_k = 1 (van der Corput: x is i's bits reversed)
⍝   dimension 2: primitive polynomial x+1, m_k = m_(k-1) xor 2×m_(k-1), m_1 = 1
⍝ No bitwise primitive is used: the bits are boolean matrices (⌊ and 2|), the
⍝ xor of the selected direction numbers is the inner product ≠.∧, and +.× with
⍝ the powers 2*-⍳D makes a double in [0, 1) (exact: a sum of powers of two).
⍝ π ≈ 4 × (points with x²+y² ≤ 1) ÷ N.
N ← 1000                      ⍝ points
B ← 10                        ⍝ bits of a point's index (2*B exceeds N)
D ← 30                        ⍝ bits of a coordinate
M1 ← D⍴1
M2 ← 1 3 5 15 17 51 85 255 257 771 1285 3855 4369 13107 21845 65535 65537 196611 327685 983055 1114129 3342387 5570645 16711935 16843009 50529027 84215045 252645135 286331153 858993459
dirs ← {2|⌊((B↑⍵)×2*D-⍳B)∘.÷2*D-⍳D}   ⍝ B×D: the bits of v_k, most significant first
I ← 2|⌊(⍳N)∘.÷2*¯1+⍳B                 ⍝ N×B: the bits of i, least significant first
coord ← {(I≠.∧dirs ⍵)+.×2*-⍳D}
X ← coord M1
Y ← coord M2
H ← +/1≥(X×X)+Y×Y
⎕← 8↑X
⎕← 8↑Y
⎕← H
4×H÷N

⍝ test: 1000 points
⍝ output: [0.5, 0.25, 0.75, 0.125, 0.625, 0.375, 0.875, 0.0625]
⍝ output: [0.5, 0.75, 0.25, 0.625, 0.125, 0.375, 0.875, 0.9375]
⍝ output: 786
⍝ output: 3.1440000000000001
