⍝ Replicate with counts known when compiling (a negative count inserts
⍝ fills), a scalar count, a one-item vector extended to every count, the
⍝ first axis ⌿, and a mask known when compiling on a matrix (a static
⍝ gather: the result's length is known, so ⌽ and ≢ apply to it).
V ← 5 6 7 8
⎕← 2 0 1 3/V
⎕← 1 ¯2 1 0/V
⎕← 3/V
⎕← 1 2 3/,9
⎕← 2/'ab'
⎕← 2 1/1.5 2.5
M ← 3 2⍴⍳6
⎕← 0 1 2⌿M
⎕← 2 1/M
⎕← 1 0 1/3 3⍴⍳9
⎕← 1 0 1⌿3 3⍴⍳9
K ← 0 1 1 0/V
⎕← ⌽K
≢2 2 2/V[⍳3]

⍝ test: replicate and static compress on every target
⍝ output: [5, 5, 7, 8, 8, 8]
⍝ output: [5, 0, 0, 7]
⍝ output: [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8]
⍝ output: [9, 9, 9, 9, 9, 9]
⍝ output: aabb
⍝ output: [1.5, 1.5, 2.5]
⍝ output: [[3, 4], [5, 6], [5, 6]]
⍝ output: [[1, 1, 2], [3, 3, 4], [5, 5, 6]]
⍝ output: [[1, 3], [4, 6], [7, 9]]
⍝ output: [[1, 2, 3], [7, 8, 9]]
⍝ output: [7, 6]
⍝ output: 6
