⍝ primes.apl: the primes up to N (the thesis's §3.5.2 micro-benchmark).
⍝ A∘.|A is the table of residues; 0= marks divisors; +⌿ counts, for each
⍝ element of A, its divisors in A (2 … N); the primes are those with one.
N ← 100
A ← 1↓⍳N
P ← (1=+⌿0=A∘.|A)/A
⎕← ≢P
P

⍝ test: the primes up to 100
⍝ output: 25
⍝ output: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97]
