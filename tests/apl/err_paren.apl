⍝ An unbalanced parenthesis: the error is at the end of the statement, and
⍝ names the '(' it was looking for (by line:col, col in code points).
X ← 1 2 3
⍝ ← ⍵ ⍺ are three bytes each in UTF-8, one column each
Y ← (X × (X + 1)
+/Y

⍝ test: a '(' without its ')'
⍝ error: err_paren.apl:5:17:
⍝ error: expected ')' closing the parenthesis at 5:5
