⍝ Replicate by counts computed at run time (docs/apl.md §3.2): a scan of the
⍝ counts, a binary search for each item, a result of run-time length (as
⍝ compress's) bounded by n·K for counts of magnitude at most K, known when
⍝ compiling from the counts' range (lower_range.c). Negative counts insert
⍝ fills; all-zero counts give an empty vector; a one-item right argument is
⍝ used for every count; a scalar count computed at run time is used for
⍝ every item; counts from reductions of a matrix's rows; inside f⍣n (the
⍝ counts' range from a comparison of ⍵, not from ⍵'s first value). Expected values: tests/apl/select_reference.py.
x ← 3 7 1 9 5
⎕← (1+x>5)/x
⎕← (1-2×x>5)/x
⎕← (2×x>20)/x
⎕← (1×x=9)/x
y ← ,4
⎕← (1+y>3)/y
⎕← (1+x>5)/'abcde'
⎕← (1+x>5)/1.5 2.5 3.5 4.5 5.5
⎕← (1+x>5)/,9
⎕← (x[2]-x)/x
⎕← (+\x>4)/x
⎕← (1+x[1]>2)/x
⎕← (3|x)/x
M ← 3 4⍴⍳12
⎕← (+/M>5)/3 4 5
⎕← (⌈/M>5)/3 4 5
⎕← (x×x>5)/x
g ← {⍵ + +/(1+⍵>5)/⍵}
⎕← (g⍣2) 3 7 1
R ← (1+x>5)/x
⎕← R×2
⎕← +/R
≢R

⍝ test: replicate with run-time counts on every target
⍝ output: [3, 7, 7, 1, 9, 9, 5]
⍝ output: [3, 0, 1, 0, 5]
⍝ output: []
⍝ output: [9]
⍝ output: [4, 4]
⍝ output: abbcdde
⍝ output: [1.5, 2.5, 2.5, 3.5, 4.5, 4.5, 5.5]
⍝ output: [9, 9, 9, 9, 9, 9, 9]
⍝ output: [3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 5, 5]
⍝ output: [7, 1, 9, 9, 5, 5, 5]
⍝ output: [3, 3, 7, 7, 1, 1, 9, 9, 5, 5]
⍝ output: [7, 1, 5, 5]
⍝ output: [4, 4, 4, 5, 5, 5, 5]
⍝ output: [4, 5]
⍝ output: [7, 7, 7, 7, 7, 7, 7, 9, 9, 9, 9, 9, 9, 9, 9, 9]
⍝ output: [151, 155, 149]
⍝ output: [6, 14, 14, 2, 18, 18, 10]
⍝ output: 41
⍝ output: 7
