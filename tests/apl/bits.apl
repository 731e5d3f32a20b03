⍝ The bit operations (docs/apl.md §5, M6): apltail's system functions
⍝ ⎕INT32AND ⎕INT32OR ⎕INT32XOR ⎕INT32SHL ⎕INT32SHR (logical) ⎕INT32SHAR
⍝ (arithmetic) and our monadic ⎕INT32NOT, TAIL's andi ori xori shli shri
⍝ shari noti: scalar functions of 32-bit ints with scalar extension, the
⍝ reductions ⎕INT32XOR/ ⎕INT32AND/ ⎕INT32OR/, a scan, names bound to them
⍝ (apltail's prelude: xor ← ⎕INT32XOR, sll ← ⎕INT32SHL, testBit), a shift
⍝ count modulo 32. Values from tests/apl/m6_reference.py.
⎕← (5 ⎕INT32AND 3),(12 ⎕INT32OR 3),12 ⎕INT32XOR 10
⎕← 1 ⎕INT32SHL 10 31
⎕← 1024 ¯2147483648 ⎕INT32SHR 10 30
⎕← 1024 ¯1024 ⎕INT32SHAR 10 1
⎕← ⎕INT32NOT 0 5 ¯1
⎕← ⎕INT32XOR/3 5 9 17 33
⎕← ⎕INT32AND/7 13 15
⎕← ⎕INT32OR/1 2 4 64
⎕← ⎕INT32OR\1 2 4 8
⎕← 6 ⎕INT32AND 2 3⍴⍳6
⎕← 1 ⎕INT32SHL ⍳5
⎕← 1 ⎕INT32SHL 33
xor ← ⎕INT32XOR
and ← ⎕INT32AND
sll ← ⎕INT32SHL
testBit ← { 0≠⍵ and 1 sll (⍺-1) }
⎕← 12 xor 10
(⍳4) testBit 5

⍝ test: bit operations on every target
⍝ output: [1, 15, 6]
⍝ output: [1024, -2147483648]
⍝ output: [1, 2]
⍝ output: [1, -512]
⍝ output: [-1, -6, 0]
⍝ output: 63
⍝ output: 5
⍝ output: 71
⍝ output: [1, 3, 7, 15]
⍝ output: [[0, 2, 2], [4, 4, 6]]
⍝ output: [2, 4, 8, 16, 32]
⍝ output: 2
⍝ output: 6
⍝ output: [1, 0, 1, 0]
