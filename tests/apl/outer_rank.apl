⍝ outer_rank.apl: ∘.f of arrays of any rank (shape (⍴A),⍴B), and 2|n of
⍝ integers as booleans (so ∧ accepts it).
M ← 2 2⍴⍳4
⎕← M ∘.× 10 100
⎕← ⍴(2 3⍴⍳6) ∘.+ 4 5⍴0
⎕← (2|⍳5) ∧ 1 1 0 1 1
+/,(⍳3) ∘.= ⍳3

⍝ test: outer products of matrices
⍝ output: [[[10, 100], [20, 200]], [[30, 300], [40, 400]]]
⍝ output: [2, 3, 4, 5]
⍝ output: [1, 0, 0, 0, 1]
⍝ output: 3
