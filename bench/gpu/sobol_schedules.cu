// sobol_schedules.cu — which loop schedule of Sobol π's bit-matrix product
// (examples/apl/bench/sobol_pi_gpu.apl: X = (I ≠.∧ dirs) +.× 2*-⍳30, I the
// N × 24 bits of the point numbers, dirs 24 × 30) should clift generate on the
// GPU? Each variant is one shape of code the lowering could emit; all compute
// the same X (checked against the first), timed with CUDA events.
//   V0  today: the N × 30 product written to memory (doubles), then +.×
//   V1  fused: per point, per column j, a reduction over k reading I's row
//   V2  V1 with the point's row of I first copied into a private array (unrolled)
//   V3  interchanged: per point, k outer, 30 accumulators (registers), j inner
//   V4  V3 with dirs in shared memory
// Usage: nvcc -O3 -arch=sm_90 -o sobol_schedules sobol_schedules.cu && ./sobol_schedules [N]
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
enum { B = 24, D = 30 };

__global__ void v0_product(const bool *__restrict__ I, const bool *__restrict__ dirs, double *__restrict__ P, long n) {
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long)gridDim.x * blockDim.x)
    for (int j = 0; j < D; j++) {
      bool acc = false;
      for (int k = 0; k < B; k++) acc = acc != (I[g * B + k] && dirs[j + k * D]);
      P[g * D + j] = acc ? 1.0 : 0.0;
    }
}
__global__ void v0_sum(const double *__restrict__ P, const double *__restrict__ w, double *__restrict__ X, long n) {
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long)gridDim.x * blockDim.x) {
    double s = 0.0;
    for (int j = 0; j < D; j++) s = s + P[g * D + j] * w[j];
    X[g] = s;
  }
}
__global__ void v1_fused(const bool *__restrict__ I, const bool *__restrict__ dirs, const double *__restrict__ w, double *__restrict__ X, long n) {
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long)gridDim.x * blockDim.x) {
    double s = 0.0;
    for (int j = 0; j < D; j++) {
      bool acc = false;
      for (int k = 0; k < B; k++) acc = acc != (I[g * B + k] && dirs[j + k * D]);
      s = s + (acc ? 1.0 : 0.0) * w[j];
    }
    X[g] = s;
  }
}
__global__ void v2_private_row(const bool *__restrict__ I, const bool *__restrict__ dirs, const double *__restrict__ w, double *__restrict__ X, long n) {
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long)gridDim.x * blockDim.x) {
    bool row[B];
#pragma unroll
    for (int k = 0; k < B; k++) row[k] = I[g * B + k];
    double s = 0.0;
    for (int j = 0; j < D; j++) {
      bool acc = false;
#pragma unroll
      for (int k = 0; k < B; k++) acc = acc != (row[k] && dirs[j + k * D]);
      s = s + (acc ? 1.0 : 0.0) * w[j];
    }
    X[g] = s;
  }
}
__global__ void v3_interchanged(const bool *__restrict__ I, const bool *__restrict__ dirs, const double *__restrict__ w, double *__restrict__ X, long n) {
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long)gridDim.x * blockDim.x) {
    bool acc[D];
#pragma unroll
    for (int j = 0; j < D; j++) acc[j] = false;
    for (int k = 0; k < B; k++) {
      bool a = I[g * B + k];
#pragma unroll
      for (int j = 0; j < D; j++) acc[j] = acc[j] != (a && dirs[j + k * D]);
    }
    double s = 0.0;
#pragma unroll
    for (int j = 0; j < D; j++) s = s + (acc[j] ? 1.0 : 0.0) * w[j];
    X[g] = s;
  }
}
__global__ void v4_shared(const bool *__restrict__ I, const bool *__restrict__ dirs, const double *__restrict__ w, double *__restrict__ X, long n) {
  __shared__ bool sd[B * D];
  for (int t = threadIdx.x; t < B * D; t += blockDim.x) sd[t] = dirs[t];
  __syncthreads();
  for (long g = (long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long)gridDim.x * blockDim.x) {
    bool acc[D];
#pragma unroll
    for (int j = 0; j < D; j++) acc[j] = false;
    for (int k = 0; k < B; k++) {
      bool a = I[g * B + k];
#pragma unroll
      for (int j = 0; j < D; j++) acc[j] = acc[j] != (a && sd[j + k * D]);
    }
    double s = 0.0;
#pragma unroll
    for (int j = 0; j < D; j++) s = s + (acc[j] ? 1.0 : 0.0) * w[j];
    X[g] = s;
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000;
  std::vector<unsigned char> hI(n * B), hd(B * D);
  std::vector<double> hw(D);
  for (long g = 0; g < n; g++) for (int k = 0; k < B; k++) hI[g * B + k] = ((g + 1) >> k) & 1;   // the bits of i = g + 1
  unsigned s = 12345;
  for (int t = 0; t < B * D; t++) { s = s * 1103515245u + 12345u; hd[t] = (s >> 16) & 1; }
  for (int j = 0; j < D; j++) hw[j] = 1.0 / (double)(1u << (j + 1));
  bool *I, *dirs; double *w, *P, *X;
  CK(cudaMalloc(&I, n * B)); CK(cudaMalloc(&dirs, B * D)); CK(cudaMalloc(&w, D * 8));
  CK(cudaMalloc(&P, n * D * 8)); CK(cudaMalloc(&X, n * 8));
  CK(cudaMemcpy(I, hI.data(), n * B, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dirs, hd.data(), B * D, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(w, hw.data(), D * 8, cudaMemcpyHostToDevice));
  int threads = 256, blocks = (int)((n + threads - 1) / threads);
  std::vector<double> ref(n), got(n);
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  const char *names[] = { "V0 product in memory, then +.x", "V1 fused", "V2 fused, private row", "V3 interchanged, 30 accumulators", "V4 V3 + dirs in shared" };
  for (int v = 0; v < 5; v++) {
    auto launch = [&]() {
      switch (v) {
      case 0: v0_product<<<blocks, threads>>>(I, dirs, P, n); v0_sum<<<blocks, threads>>>(P, w, X, n); break;
      case 1: v1_fused<<<blocks, threads>>>(I, dirs, w, X, n); break;
      case 2: v2_private_row<<<blocks, threads>>>(I, dirs, w, X, n); break;
      case 3: v3_interchanged<<<blocks, threads>>>(I, dirs, w, X, n); break;
      case 4: v4_shared<<<blocks, threads>>>(I, dirs, w, X, n); break;
      }
    };
    CK(cudaMemset(X, 0, n * 8));
    launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), X, n * 8, cudaMemcpyDeviceToHost));
    if (v == 0) ref = got;
    long bad = 0;
    for (long g = 0; g < n; g++) bad += got[g] != ref[g];
    std::vector<float> ms(20);
    for (int r = 0; r < 20; r++) { CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); CK(cudaEventElapsedTime(&ms[r], a, b)); }
    std::sort(ms.begin(), ms.end());
    double sum = 0; for (long g = 0; g < n; g++) sum += got[g];
    printf("%-36s median %.4f ms (min %.4f)  %ld of %ld differ from V0  checksum %.6f\n", names[v], ms[10], ms[0], bad, n, sum);
  }
  return 0;
}
