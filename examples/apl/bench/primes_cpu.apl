⍝ bench/primes_cpu.apl: primes.apl at the size of the thesis's benchmark program
⍝ (A←1↓⍳10000 in §3.5.2; its Table 3.1 says N = 100.000, which the program's
⍝ outer product of 10⁸ residues does not match: see README.md). It prints how
⍝ many primes there are; its value is their sum.
N ← 10000
A ← 1↓⍳N
P ← (1=+⌿0=A∘.|A)/A
⎕← ≢P
+/P

⍝ test: the primes up to 10000
⍝ output: 1229
⍝ output: 5736396
