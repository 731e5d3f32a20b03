⍝ Expand by a mask computed at run time (docs/apl.md §3.2): a scan of the
⍝ mask's ones, item j the next item where the mask is 1, else the fill (0,
⍝ a blank); the result's length is the mask's. A one-item right argument is
⍝ used for every 1 (so an all-zero mask gives all fills); \ on the rows of a
⍝ matrix, ⍀ on its first axis. The ones must be as many as the items: a
⍝ run-time length error otherwise (expand_runtime_few.apl,
⍝ expand_runtime_many.apl). Expected values: tests/apl/select_reference.py.
x ← 3 7 1 9 5
M ← 2 3⍴⍳6
v ← 5 1 7 2 8
⎕← (x>5)\10 20
⎕← (3↑v>4)\'ab'
⎕← (x>5)\2.5 3.5
⎕← (x>5)\7
⎕← (x>20)\7
⎕← (,x[1]>2)\,5
⎕← (v>4)\M
⎕← (3↑v>4)⍀M
+/(x>5)\10 20

⍝ test: expand with a run-time mask on every target
⍝ output: [0, 10, 0, 20, 0]
⍝ output: a b
⍝ output: [0, 2.5, 0, 3.5, 0]
⍝ output: [0, 7, 0, 7, 0]
⍝ output: [0, 0, 0, 0, 0]
⍝ output: [5]
⍝ output: [[1, 0, 2, 0, 3], [4, 0, 5, 0, 6]]
⍝ output: [[1, 2, 3], [0, 0, 0], [4, 5, 6]]
⍝ output: 30
