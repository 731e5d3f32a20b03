⍝ blackscholes.apl: European call options priced with the Black-Scholes
⍝ formula (the thesis's §3.5.2 micro-benchmark):
⍝   C = S×Φ(d1) - X×e^(-R×T)×Φ(d2)
⍝   d1 = (ln(S÷X) + (R+V²÷2)×T) ÷ (V×√T),  d2 = d1 - V×√T
⍝ Φ, the standard normal distribution function, is cnd: the polynomial
⍝ approximation of Abramowitz and Stegun 26.2.17 (error below 7.5E¯8), as in
⍝ the usual Black-Scholes benchmarks.
⍝ The thesis prices the same option N times; here option i has strike
⍝ 80+40×(i-1)÷N, so that every element differs. The program prints the mean
⍝ price (avg is a train) and its value is the N prices.
cnd ← {
  L ← |⍵
  K ← ÷1+0.2316419×L
  W ← 1-((÷(○2)*0.5)×*-(L×L)÷2)×K×0.31938153+K×¯0.356563782+K×1.781477937+K×¯1.821255978+K×1.330274429
  W+(⍵<0)×1-2×W
}
avg ← +/÷≢
N ← 10
S ← 100                       ⍝ spot price
X ← 80+40×(¯1+⍳N)÷N           ⍝ strike prices
R ← 0.02                      ⍝ riskless interest rate
V ← 0.3                       ⍝ volatility
T ← 0.5                       ⍝ time to maturity in years
D1 ← ((⍟S÷X)+(R+(V*2)÷2)×T)÷V×T*0.5
D2 ← D1-V×T*0.5
C ← (S×cnd D1)-X×(*-R×T)×cnd D2
⎕← avg C
C

⍝ test: ten strikes
⍝ tolerance: 1e-10
⍝ output: 11.095191374627586
⍝ output: [22.089144072298666, 18.884370295679986, 15.943794220681781, 13.294162855211653, 10.949660412214818, 8.911797191438076, 7.1705224288060165, 5.7068071508149174, 4.4951652639529698, 3.5064898551769765]
