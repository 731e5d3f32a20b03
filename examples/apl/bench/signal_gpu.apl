⍝ bench/signal_gpu.apl: signal.apl (Example 3.1) at the size of §3.5.6 (Tables
⍝ 3.5 and 3.6: N = 50,000,000) on a generated signal 1 … 97.
diff ← {1↓⍵-¯1⌽⍵}
signal ← {¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
N ← 50000000
+/ signal 1+97|7×⍳N

⍝ test: N = 50000000
⍝ tolerance: 1e-9
⍝ output: 281982319.63916123
