// emu.h — a CPU emulation of the CUDA subset of dpia/lookback.c's kernels: a
// block's threads are POSIX threads, __syncthreads/__syncwarp barriers, the
// shuffles and votes exchanges through a per-warp buffer; __shared__ arrays are
// static (one block at a time). A check of the generated code's logic without a GPU.
#include <pthread.h>
#include <vector>
#include <functional>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <strings.h>
struct dim3e { unsigned x, y, z; };
static thread_local dim3e threadIdx, blockIdx;
static dim3e blockDim, gridDim;
#define __global__
#define __device__
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__
static pthread_barrier_t emu_block, emu_warp[8];
static inline void __syncthreads() { pthread_barrier_wait(&emu_block); }
static inline void __syncwarp() { pthread_barrier_wait(&emu_warp[threadIdx.x / 32]); }
static long long emu_buf[8][32];
template <typename T> static T emu_xchg(T v, int from) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  memcpy(&emu_buf[w][l], &v, sizeof v);
  __syncwarp();
  T r; memcpy(&r, &emu_buf[w][from], sizeof r);
  __syncwarp();
  return r;
}
template <typename T> static T __shfl_up_sync(unsigned, T v, int d) { int l = threadIdx.x % 32; return emu_xchg(v, l >= d ? l - d : l); }
template <typename T> static T __shfl_down_sync(unsigned, T v, int d) { int l = threadIdx.x % 32; return emu_xchg(v, l + d < 32 ? l + d : l); }
static unsigned __ballot_sync(unsigned, int p) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  emu_buf[w][l] = p != 0;
  __syncwarp();
  unsigned r = 0; for (int k = 0; k < 32; k++) if (emu_buf[w][k]) r |= 1u << k;
  __syncwarp();
  return r;
}
static inline void __nanosleep(unsigned) {}
static int __ffs(unsigned x) { return ffs((int)x); }
static int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static int atomicCAS(int *p, int c, int v) { __atomic_compare_exchange_n(p, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
static int __float_as_int(float x) { int i; memcpy(&i, &x, 4); return i; }
static float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
static long long __double_as_longlong(double x) { long long i; memcpy(&i, &x, 8); return i; }
#define __launch_bounds__(a, b)
