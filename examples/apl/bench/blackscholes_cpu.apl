⍝ bench/blackscholes_cpu.apl: blackscholes.apl at the size of the thesis's Table
⍝ 3.1 (N = 100.000). Its value is the mean price.
cnd ← {
  L ← |⍵
  K ← ÷1+0.2316419×L
  W ← 1-((÷(○2)*0.5)×*-(L×L)÷2)×K×0.31938153+K×¯0.356563782+K×1.781477937+K×¯1.821255978+K×1.330274429
  W+(⍵<0)×1-2×W
}
avg ← +/÷≢
N ← 100000
S ← 100                       ⍝ spot price
X ← 80+40×(¯1+⍳N)÷N           ⍝ strike prices
R ← 0.02                      ⍝ riskless interest rate
V ← 0.3                       ⍝ volatility
T ← 0.5                       ⍝ time to maturity in years
D1 ← ((⍟S÷X)+(R+(V*2)÷2)×T)÷V×T*0.5
D2 ← D1-V×T*0.5
C ← (S×cnd D1)-X×(*-R×T)×cnd D2
avg C

⍝ test: N = 100000
⍝ tolerance: 1e-9
⍝ output: 10.104549591873258
