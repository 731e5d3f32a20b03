⍝ Compress and replicate along the first axis (⌿) of an array of rank ≥ 2 by
⍝ a mask or counts computed at run time (docs/apl.md §3.2, "Run-time
⍝ replicate and expand"): a run-time number of rows, each of static length,
⍝ a run-time length outermost ({∃X.[[T]M]X}, SPEC §3.4). The rows are
⍝ selected by a filter of their indices (compress) or a scan of the counts
⍝ and a search (replicate, bounded by n·K from the counts' range). An
⍝ all-zero mask gives no rows, negative counts rows of fills (APL2, Dyalog);
⍝ chars, doubles, rank 3, a run-time scalar count, a one-row right argument;
⍝ the result under +/ +⌿ × ⍴ ≢. Expected values: tests/apl/select_reference.py.
M ← 3 4⍴⍳12
⎕← (M[;1]>2)⌿M
⎕← (M[;1]>20)⌿M
⎕← ⍴(M[;1]>20)⌿M
⎕← (M[;1]=5)⌿M
⎕← (1+M[;1]>2)⌿M
⎕← (1-2×M[;1]>2)⌿M
⎕← (2×M[;1]>20)⌿M
⎕← (M[;1]>2)⌿3 2⍴'abcdef'
⎕← (1+M[;1]>2)⌿3 2⍴1.5 2.5 3.5 4.5 5.5 6.5
⎕← (1-2×M[;1]>5)⌿3 2⍴1.5 2.5 3.5 4.5 5.5 6.5
⎕← (M[;1]>2)⌿3 2 2⍴⍳12
⎕← (1+M[1;1]>0)⌿M
⎕← (1+M[;1]>2)⌿1 4⍴⍳4
R ← (1+M[;1]>2)⌿M
⎕← +/R
⎕← +⌿R
⎕← R×2
⎕← ⍴R
⎕← +⌿(M[;1]>2)⌿M
≢R

⍝ test: ⌿ of a matrix by run-time masks and counts on every target
⍝ output: [[5, 6, 7, 8], [9, 10, 11, 12]]
⍝ output: []
⍝ output: [0, 4]
⍝ output: [[5, 6, 7, 8]]
⍝ output: [[1, 2, 3, 4], [5, 6, 7, 8], [5, 6, 7, 8], [9, 10, 11, 12], [9, 10, 11, 12]]
⍝ output: [[1, 2, 3, 4], [0, 0, 0, 0], [0, 0, 0, 0]]
⍝ output: []
⍝ output: cd
⍝ output: ef
⍝ output: [[1.5, 2.5], [3.5, 4.5], [3.5, 4.5], [5.5, 6.5], [5.5, 6.5]]
⍝ output: [[1.5, 2.5], [3.5, 4.5], [0, 0]]
⍝ output: [[[5, 6], [7, 8]], [[9, 10], [11, 12]]]
⍝ output: [[1, 2, 3, 4], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6, 7, 8], [9, 10, 11, 12], [9, 10, 11, 12]]
⍝ output: [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]
⍝ output: [10, 26, 26, 42, 42]
⍝ output: [29, 34, 39, 44]
⍝ output: [[2, 4, 6, 8], [10, 12, 14, 16], [10, 12, 14, 16], [18, 20, 22, 24], [18, 20, 22, 24]]
⍝ output: [5, 4]
⍝ output: [14, 16, 18, 20]
⍝ output: 5
