⍝ easter.apl: the date of Easter Sunday in the Gregorian calendar, by Knuth's
⍝ algorithm E (The Art of Computer Programming, vol. 1, §1.3.2, exercise 14).
⍝ easter ⍵ is N: Easter is March N, that is April N-31 when N>31. The body
⍝ uses scalar functions only; it is applied to each year with ¨.
⍝ The program prints the month (3 or 4) of each year 2000 … 2031, Easter of
⍝ the years 100000 … 500000 (where 11×G+20+Z-X is negative: | is APL's
⍝ residue, whose result has the sign of its left argument), and its value is
⍝ the dates of 2000 … 2031 as YYYYMMDD.
easter ← {
  G ← 1+19|⍵                  ⍝ golden number
  C ← 1+⌊⍵÷100                ⍝ century
  X ← (⌊3×C÷4)-12             ⍝ leap years dropped so far
  Z ← (⌊(5+8×C)÷25)−5         ⍝ correction for the moon's orbit (− is U+2212)
  D ← (⌊5×⍵÷4)-X+10           ⍝ March ((-D) mod 7) is a Sunday
  E0 ← 30|(11×G)+20+Z-X       ⍝ epact
  E ← E0+(E0=24)∨(E0=25)∧G>11
  N0 ← 44-E                   ⍝ full moon: March N0
  N1 ← N0+30×N0<21
  N1+7-7|D+N1                 ⍝ the Sunday after it
}
Y ← 1999+⍳32
N ← easter¨ Y
M ← 3+N>31
⎕← M
⎕← easter¨ 100000×⍳5
(10000×Y)+(100×M)+N-31×N>31

⍝ test: Easter 2000 … 2031, and of far years
⍝ output: [4, 4, 3, 4, 4, 3, 4, 4, 3, 4, 4, 4, 4, 3, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 3, 4, 4, 4, 4]
⍝ output: [47, 54, 33, 40, 47]
⍝ output: [20000423, 20010415, 20020331, 20030420, 20040411, 20050327, 20060416, 20070408, 20080323, 20090412, 20100404, 20110424, 20120408, 20130331, 20140420, 20150405, 20160327, 20170416, 20180401, 20190421, 20200412, 20210404, 20220417, 20230409, 20240331, 20250420, 20260405, 20270328, 20280416, 20290401, 20300421, 20310413]
