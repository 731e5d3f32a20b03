⍝ Replicate and compress along the last axis (/) of an array of rank 3 by
⍝ counts or a mask computed at run time, printed: the result is held with
⍝ its run-time last axis first ({∃X.[[[T]N]M]X}, SPEC §3.4; docs/apl.md
⍝ §3.2) and printed in APL's order (tail/output.c print_held), as a static
⍝ array of rank 3 prints: counts, chars (one row a line), an all-zero mask
⍝ (rows of no items) and its ⍴, doubles, negative counts (fills), and as
⍝ the program's value. Was refused ("an output of rank 3 whose last axis
⍝ has a run-time length"). Expected values: tests/apl/select_reference.py.
A ← 2 2 3⍴⍳12
⎕← (1+A[1;1;]>1)/A
⎕← (A[1;1;]>1)/2 2 3⍴'abcdefghijkl'
⎕← (A[1;1;]>5)/A
⎕← ⍴(A[1;1;]>5)/A
⎕← (1+A[1;1;]>2)/2 1 3⍴0.5 1.5 2.5 3.5 4.5 5.5
(1-2×A[1;1;]>2)/A

⍝ test: a / result of rank 3 printed, every target
⍝ output: [[[1, 2, 2, 3, 3], [4, 5, 5, 6, 6]], [[7, 8, 8, 9, 9], [10, 11, 11, 12, 12]]]
⍝ output: bc
⍝ output: ef
⍝ output: hi
⍝ output: kl
⍝ output: [[[], []], [[], []]]
⍝ output: [2, 2, 0]
⍝ output: [[[0.5, 1.5, 2.5, 2.5]], [[3.5, 4.5, 5.5, 5.5]]]
⍝ output: [[[1, 2, 0], [4, 5, 0]], [[7, 8, 0], [10, 11, 0]]]
