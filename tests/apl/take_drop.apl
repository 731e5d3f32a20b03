⍝ ↑ ↓ with a vector left argument (one count per axis), overtake with the
⍝ fill (0, or a blank for characters), negative counts, a scalar count on a
⍝ matrix (the first axis), a left argument computed from the shape.
M ← 2 2⍴⍳4
Q ← 3 2⍴⍳6
⎕← 2 3↑M
⎕← ¯3 ¯1↑M
⎕← 1 ¯1↓3 3⍴⍳9
⎕← 0 1↓Q
⎕← 5↑1 2 3
⎕← ¯5↑1 2 3
⎕← 4↑M
⎕← ¯1↑Q
⎕← ((≢Q),1)↑Q
⎕← '[',(4↑'ab'),']'
2 ¯3↑0.5×M

⍝ test: take and drop on every target
⍝ output: [[1, 2, 0], [3, 4, 0]]
⍝ output: [[0], [2], [4]]
⍝ output: [[4, 5], [7, 8]]
⍝ output: [[2], [4], [6]]
⍝ output: [1, 2, 3, 0, 0]
⍝ output: [0, 0, 1, 2, 3]
⍝ output: [[1, 2], [3, 4], [0, 0], [0, 0]]
⍝ output: [[5, 6]]
⍝ output: [[1], [3], [5]]
⍝ output: [ab  ]
⍝ output: [[0, 0.5, 1], [0, 1.5, 2]]
