// f36 probe 3: which encodings of a 32-bit integer max/min keep ptxas (sm_90, -O3) from
// dropping the negation of a fused three-input VIMNMX3 (probe 2: r = max(r, 2 - i) over
// i < 8 gives 4; ptxas -O0 and -G right, -O1 and up wrong). Each variant folds
// r = OP(r, c - i) (and r = OP(r, i - c) for min) over i < n, from r = 0, for c in -3..6
// (template arguments: the fault needs constants) and n in 0..300; the host computes the expected values.
#include <cstdio>
__device__ __forceinline__ int v_builtin_max(int a, int b) { return max(a, b); }
__device__ __forceinline__ int v_builtin_min(int a, int b) { return min(a, b); }
__device__ __forceinline__ int v_asm_max(int a, int b) { int r; asm("max.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ int v_asm_min(int a, int b) { int r; asm("min.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ int v_sel_max(int a, int b) { int r; asm("{ .reg .pred p; setp.ge.s32 p, %1, %2; selp.s32 %0, %1, %2, p; }" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ int v_sel_min(int a, int b) { int r; asm("{ .reg .pred p; setp.le.s32 p, %1, %2; selp.s32 %0, %1, %2, p; }" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ int v_vol_max(int a, int b) { int r; asm volatile("max.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ int v_vol_min(int a, int b) { int r; asm volatile("min.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ int v_s64_max(int a, int b) { long long r; asm("max.s64 %0, %1, %2;" : "=l"(r) : "l"((long long)a), "l"((long long)b)); return (int)r; }
__device__ __forceinline__ int v_s64_min(int a, int b) { long long r; asm("min.s64 %0, %1, %2;" : "=l"(r) : "l"((long long)a), "l"((long long)b)); return (int)r; }
__device__ __forceinline__ int v_tern_max(int a, int b) { return a >= b ? a : b; }
__device__ __forceinline__ int v_tern_min(int a, int b) { return a <= b ? a : b; }
__device__ __forceinline__ int v_xor_max(int a, int b) { int m = -(int)(a < b); return a ^ ((a ^ b) & m); }
__device__ __forceinline__ int v_xor_min(int a, int b) { int m = -(int)(a > b); return a ^ ((a ^ b) & m); }
#define KERNELS(V) \
  template <int C> __global__ void k_##V(int *out, int n) { \
    int r = 0, s = 0; \
    for (int i = 0; i < n; i++) { r = v_##V##_max(r, C - i); s = v_##V##_min(s, i - C); } \
    out[0] = r; out[1] = s; }
KERNELS(builtin) KERNELS(asm) KERNELS(sel) KERNELS(vol) KERNELS(s64) KERNELS(tern) KERNELS(xor)
typedef void (*K)(int *, int);
#define ROW(V) { k_##V<-3>, k_##V<-2>, k_##V<-1>, k_##V<0>, k_##V<1>, k_##V<2>, k_##V<3>, k_##V<4>, k_##V<5>, k_##V<6> }
int main() {
  K ks[7][10] = { ROW(builtin), ROW(asm), ROW(sel), ROW(vol), ROW(s64), ROW(tern), ROW(xor) };
  const char *names[] = { "builtin", "asm", "sel", "vol", "s64", "tern", "xor" };
  int *o, h[2];
  cudaMalloc(&o, sizeof h);
  for (int v = 0; v < 7; v++) {
    int bad = 0, first_n = -1, first_c = 0, got = 0, want = 0;
    for (int n = 0; n <= 300; n++)
      for (int b = 0; b < 10; b++) {
        ks[v][b]<<<1, 1>>>(o, n);
        cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
        int c = b - 3, r = 0, s = 0;
        for (int i = 0; i < n; i++) { r = r > c - i ? r : c - i; s = s < i - c ? s : i - c; }
        if (h[0] != r || h[1] != s) {
          if (!bad++) { first_n = n; first_c = c; got = h[0] != r ? h[0] : h[1]; want = h[0] != r ? r : s; }
        }
      }
    printf("%-8s %s (%d wrong of 3010; first n=%d c=%d got %d want %d)\n", names[v], bad ? "WRONG" : "ok", bad, first_n, first_c, got, want);
  }
  return 0;
}
