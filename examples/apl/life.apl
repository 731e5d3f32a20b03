⍝ life.apl: Conway's Game of Life on a torus (the thesis's §3.5.2
⍝ micro-benchmark, written without nested arrays): a cell's neighbours are
⍝ counted by adding the board rotated one step in each of the eight
⍝ directions (⌽ along rows, ⊖ along columns, both wrapping around); a cell
⍝ lives in the next generation with 3 neighbours, or 2 if it is alive now.
⍝ The board is 7×10 (not square, so that ⌽ and ⊖ cannot be confused): a
⍝ glider that crosses the edges and a blinker, for K generations (⍣).
⍝ The program prints the first and last board as text ('.#'[1+G] indexes a
⍝ char vector with a boolean matrix) and the population; its value is the
⍝ last board.
life ← {
  N ← (¯1⊖¯1⌽⍵)+(¯1⊖⍵)+(¯1⊖1⌽⍵)+(¯1⌽⍵)+(1⌽⍵)+(1⊖¯1⌽⍵)+(1⊖⍵)+1⊖1⌽⍵
  (N=3)∨⍵∧N=2
}
R ← 7 ⋄ C ← 10 ⋄ K ← 9
glider ← 3 3⍴0 1 0 0 0 1 1 1 1
G0 ← (¯3⊖¯6⌽(R,C)↑glider)∨¯1⊖¯3⌽(R,C)↑1 3⍴1
G ← (life⍣K) G0
⎕← '.#'[1+G0]
⎕← '.#'[1+G]
⎕← +/,G
G

⍝ test: a glider and a blinker for 9 generations
⍝ output: ..........
⍝ output: ...###....
⍝ output: ..........
⍝ output: .......#..
⍝ output: ........#.
⍝ output: ......###.
⍝ output: ..........
⍝ output: #...#....#
⍝ output: ....#....#
⍝ output: ....#.....
⍝ output: ..........
⍝ output: ..........
⍝ output: ..........
⍝ output: #.......#.
⍝ output: 8
⍝ output: [[1, 0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0, 1, 0]]
