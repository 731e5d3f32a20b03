// fcl_peers.cu — hand-written CUDA and CUB peers of the FCL case studies of
// seed 003 Tables 5.1 and 5.2 (bench/gpu/fcl_2026-11-27.sh), on 32-bit ints
// as the thesis's, matmul on doubles as the thesis's. Build on the GPU machine:
//     nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -o fcl_peers
//     (with cuBLAS: nvcc -O3 -arch=sm_90 bench/gpu/fcl_peers.cu -lcublas -o fcl_peers)
// Usage: fcl_peers [small|2027|2027small]
//   (none)     2^24 ints, 4096², matmul 1024² and 2048²: bench/gpu/fcl_2026-11-27.sh
//   small      tiny sizes, a smoke test of the checks
//   2027       issue 15's sizes (bench/gpu/fcl_2027.sh): 2^27 ints, transpose
//              8192 x 16384, matmul 2048² doubles; the peers also cublasSgeam
//              (transpose), cublasDgemm (matmul) and a copy kernel
//   2027small  the same peers at small sizes
//   2027rs     reduce and scan (CUB) and the copies at 2^27 only (bench/gpu/fcl_2027b.sh)
//
// The thesis compares with NVIDIA's OpenCL SDK kernels (Table 5.1: reverse,
// transpose, a partial reduction, matrix multiplication) and with Thrust
// (Table 5.2: full reduction and scan); here the SDK's kernels are written in
// CUDA after the same designs, and Thrust's reduction and scan are CUB's (the
// library Thrust calls). Each peer's result is checked once against a CPU
// reference (exact: ints wrap as in FCL; matmul's doubles hold small ints, so
// its sums are exact too), then WARMUP warm-ups and RUNS timed
// runs, each between two cudaEvents; the median printed as
//     peer NAME SIZE MEDIAN_MS
// and a failed check as
//     peerfail NAME SIZE reason
// NAME: reverse, transpose, reduce_part, matmul (Table 5.1), reduce, scan
// (Table 5.2), copy (cudaMemcpy device to device of the same bytes: the
// bandwidth bound), copykernel (a kernel copying one int per thread, the
// same bytes), sgeam (cublasSgeam transposing floats of the same bytes),
// dgemm (cublasDgemm). SIZE: N=… or RxC (matmul: NxN).
#include <cub/cub.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static const int WARMUP = 5;
static const int RUNS = 100;
static int failures = 0;

#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
              cudaGetErrorString(e_));                                             \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)
#define CKLAUNCH() CK(cudaGetLastError())

// ---------------------------------------------------------------- helpers
static uint64_t seed_state = 88172645463325252ULL;
static uint64_t next_u64() {  // xorshift64*
  seed_state ^= seed_state >> 12;
  seed_state ^= seed_state << 25;
  seed_state ^= seed_state >> 27;
  return seed_state * 0x2545F4914F6CDD1DULL;
}
static std::vector<int> random_ints(size_t n) {  // in [-50, 50], as tests/fcl/npy.py
  std::vector<int> v(n);
  for (size_t i = 0; i < n; i++) v[i] = (int)(next_u64() % 101) - 50;
  return v;
}
static int *to_device(const std::vector<int> &h) {
  int *d;
  CK(cudaMalloc(&d, h.size() * sizeof(int)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
  return d;
}
static int *device_poisoned(size_t n) {
  int *d;
  CK(cudaMalloc(&d, n * sizeof(int)));
  CK(cudaMemset(d, 0xa5, n * sizeof(int)));
  return d;
}
static std::vector<int> to_host(const int *d, size_t n) {
  std::vector<int> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}
static int wrap_add(int a, int b) { return (int)((uint32_t)a + (uint32_t)b); }

static double time_ms(const std::function<void()> &op) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < WARMUP; i++) op();
  CK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int i = 0; i < RUNS; i++) {
    CK(cudaEventRecord(a));
    op();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float t;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
static void report(const char *name, const std::string &size, double ms) {
  printf("peer %s %s %.5f\n", name, size.c_str(), ms);
  fflush(stdout);
}
static bool check(const char *name, const std::string &size, size_t bad, size_t n) {
  if (bad) {
    printf("peerfail %s %s %zu of %zu results wrong\n", name, size.c_str(), bad, n);
    fflush(stdout);
    failures++;
    return false;
  }
  fprintf(stderr, "check %s %s ok\n", name, size.c_str());
  return true;
}
static size_t count_bad(const std::vector<int> &got, const std::vector<int> &want) {
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); i++) bad += got[i] != want[i];
  return bad;
}

// ---------------------------------------------------------------- kernels
// reverse: one element per thread, as the SDK's (no block virtualisation)
__global__ void reverse_kernel(const int *__restrict__ in, int *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[n - 1 - i] = in[i];
}

// copy: one int per thread (the bandwidth bound of a kernel, as clift's copy)
__global__ void copy_kernel(const int *__restrict__ in, int *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// transpose: 32x32 tiles in shared memory (one padding column), 32x8 threads
__global__ void transpose_kernel(const int *__restrict__ in, int *__restrict__ out, int rows, int cols) {
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// partial reduction: what FCL's reducePart computes, one sum per chunk of
// 2 * 256 elements (the SDK's reduce kernel with the first add during the
// load, the last warp by shuffles)
__global__ void reduce_part_kernel(const int *__restrict__ in, int *__restrict__ out, int n) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  size_t i = (size_t)blockIdx.x * 512 + t;
  int v = (i < (size_t)n ? in[i] : 0) + (i + 256 < (size_t)n ? in[i + 256] : 0);
  s[t] = v;
  __syncthreads();
  for (unsigned k = 128; k >= 32; k >>= 1) {
    if (t < k) s[t] = v = v + s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    for (int k = 16; k > 0; k >>= 1) v += __shfl_down_sync(0xffffffffu, v, k);
    if (t == 0) out[blockIdx.x] = v;
  }
}

// matrix multiplication of doubles: 16x16 tiles of A and B in shared memory,
// one thread per element of C (the SDK's matrixMul), n a multiple of 16
__global__ void matmul_kernel(const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C, int n) {
  __shared__ double a[16][16], b[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  double acc = 0;
  for (int t = 0; t < n; t += 16) {
    a[threadIdx.y][threadIdx.x] = A[(size_t)row * n + t + threadIdx.x];
    b[threadIdx.y][threadIdx.x] = B[(size_t)(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; k++) acc += a[threadIdx.y][k] * b[k][threadIdx.x];
    __syncthreads();
  }
  C[(size_t)row * n + col] = acc;
}

// ---------------------------------------------------------------- benchmarks
static void bench_copy(size_t n) {
  std::vector<int> x = random_ints(n);
  int *dx = to_device(x), *dy = device_poisoned(n);
  auto op = [&] { CK(cudaMemcpyAsync(dy, dx, n * sizeof(int), cudaMemcpyDeviceToDevice)); };
  op();
  if (check("copy", "N=" + std::to_string(n), count_bad(to_host(dy, n), x), n)) report("copy", "N=" + std::to_string(n), time_ms(op));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

static void bench_reverse(size_t n) {
  std::vector<int> x = random_ints(n), want(n);
  for (size_t i = 0; i < n; i++) want[n - 1 - i] = x[i];
  int *dx = to_device(x), *dy = device_poisoned(n);
  auto op = [&] { reverse_kernel<<<(unsigned)((n + 255) / 256), 256>>>(dx, dy, (int)n); };
  op();
  CKLAUNCH();
  std::string sz = "N=" + std::to_string(n);
  if (check("reverse", sz, count_bad(to_host(dy, n), want), n)) report("reverse", sz, time_ms(op));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

static void bench_transpose(size_t rows, size_t cols) {
  size_t n = rows * cols;
  std::vector<int> x = random_ints(n), want(n);
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++) want[c * rows + r] = x[r * cols + c];
  int *dx = to_device(x), *dy = device_poisoned(n);
  dim3 blk(32, 8), grd((unsigned)((cols + 31) / 32), (unsigned)((rows + 31) / 32));
  auto op = [&] { transpose_kernel<<<grd, blk>>>(dx, dy, (int)rows, (int)cols); };
  op();
  CKLAUNCH();
  std::string sz = std::to_string(rows) + "x" + std::to_string(cols);
  if (check("transpose", sz, count_bad(to_host(dy, n), want), n)) report("transpose", sz, time_ms(op));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

static void bench_reduce_part(size_t n) {
  size_t parts = (n + 511) / 512;
  std::vector<int> x = random_ints(n), want(parts, 0);
  for (size_t i = 0; i < n; i++) want[i / 512] = wrap_add(want[i / 512], x[i]);
  int *dx = to_device(x), *dy = device_poisoned(parts);
  auto op = [&] { reduce_part_kernel<<<(unsigned)parts, 256>>>(dx, dy, (int)n); };
  op();
  CKLAUNCH();
  std::string sz = "N=" + std::to_string(n);
  if (check("reduce_part", sz, count_bad(to_host(dy, parts), want), parts)) report("reduce_part", sz, time_ms(op));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

static void bench_matmul(size_t n) {  // doubles holding ints in [-50, 50]: every sum exact
  std::vector<int> Ai = random_ints(n * n), Bi = random_ints(n * n);
  std::vector<double> A(Ai.begin(), Ai.end()), B(Bi.begin(), Bi.end()), want(n * n, 0.0);
  size_t every = n > 1024 ? n / 128 : 1;   // large: 128 rows checked (the CPU's product is slow)
  for (size_t r = 0; r < n; r += every)
    for (size_t k = 0; k < n; k++) {
      double a = A[r * n + k];
      for (size_t c = 0; c < n; c++) want[r * n + c] += a * B[k * n + c];
    }
  double *dA, *dB, *dC;
  size_t bytes = n * n * sizeof(double);
  CK(cudaMalloc(&dA, bytes));
  CK(cudaMalloc(&dB, bytes));
  CK(cudaMalloc(&dC, bytes));
  CK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dC, 0xff, bytes));
  dim3 blk(16, 16), grd((unsigned)(n / 16), (unsigned)(n / 16));
  auto op = [&] { matmul_kernel<<<grd, blk>>>(dA, dB, dC, (int)n); };
  op();
  CKLAUNCH();
  std::vector<double> got(n * n);
  CK(cudaMemcpy(got.data(), dC, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t r = 0; r < n; r += every)
    for (size_t c = 0; c < n; c++) bad += got[r * n + c] != want[r * n + c];
  std::string sz = std::to_string(n) + "x" + std::to_string(n);
  if (check("matmul", sz, bad, n * n)) report("matmul", sz, time_ms(op));
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
}

#define CB(call)                                                                   \
  do {                                                                             \
    cublasStatus_t s_ = (call);                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                             \
      fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call,  \
              (int)s_);                                                            \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)

static void bench_copy_kernel(size_t n) {
  std::vector<int> x = random_ints(n);
  int *dx = to_device(x), *dy = device_poisoned(n);
  auto op = [&] { copy_kernel<<<(unsigned)((n + 255) / 256), 256>>>(dx, dy, (int)n); };
  op();
  CKLAUNCH();
  std::string sz = "N=" + std::to_string(n);
  if (check("copykernel", sz, count_bad(to_host(dy, n), x), n)) report("copykernel", sz, time_ms(op));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

// cublasSgeam: C = op(A), the row-major rows x cols matrix (column-major
// cols x rows, lda = cols) transposed into row-major cols x rows (column-major
// rows x cols, ldc = rows); floats holding small ints, so the check is exact
static void bench_sgeam(cublasHandle_t h, size_t rows, size_t cols) {
  size_t n = rows * cols;
  std::vector<int> xi = random_ints(n);
  std::vector<float> x(xi.begin(), xi.end()), want(n), got(n);
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++) want[c * rows + r] = x[r * cols + c];
  float *dx, *dy;
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemset(dy, 0xa5, n * sizeof(float)));
  const float one = 1.0f, zero = 0.0f;
  auto op = [&] { CB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)rows, (int)cols, &one, dx, (int)cols, &zero, dy, (int)rows, dy, (int)rows)); };
  op();
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(got.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += got[i] != want[i];
  std::string sz = std::to_string(rows) + "x" + std::to_string(cols);
  if (check("sgeam", sz, bad, n)) report("sgeam", sz, time_ms(op));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

// cublasDgemm: row-major C = A B is column-major C^T = B^T A^T
static void bench_dgemm(cublasHandle_t h, size_t n) {
  std::vector<int> Ai = random_ints(n * n), Bi = random_ints(n * n);
  std::vector<double> A(Ai.begin(), Ai.end()), B(Bi.begin(), Bi.end()), want(n * n, 0.0), got(n * n);
  size_t every = n > 1024 ? n / 128 : 1;
  for (size_t r = 0; r < n; r += every)
    for (size_t k = 0; k < n; k++) {
      double a = A[r * n + k];
      for (size_t c = 0; c < n; c++) want[r * n + c] += a * B[k * n + c];
    }
  double *dA, *dB, *dC;
  size_t bytes = n * n * sizeof(double);
  CK(cudaMalloc(&dA, bytes));
  CK(cudaMalloc(&dB, bytes));
  CK(cudaMalloc(&dC, bytes));
  CK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dC, 0xff, bytes));
  const double one = 1.0, zero = 0.0;
  int m = (int)n;
  auto op = [&] { CB(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, dB, m, dA, m, &zero, dC, m)); };
  op();
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(got.data(), dC, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t r = 0; r < n; r += every)
    for (size_t c = 0; c < n; c++) bad += got[r * n + c] != want[r * n + c];
  std::string sz = std::to_string(n) + "x" + std::to_string(n);
  if (check("dgemm", sz, bad, n * n)) report("dgemm", sz, time_ms(op));
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
}

static void bench_reduce(size_t n) {  // Table 5.2: Thrust's reduction, i.e. CUB's
  std::vector<int> x = random_ints(n);
  int want = 0;
  for (size_t i = 0; i < n; i++) want = wrap_add(want, x[i]);
  int *dx = to_device(x), *dy = device_poisoned(1);
  void *tmp = nullptr;
  size_t tmp_bytes = 0;
  CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, dx, dy, (int)n));
  CK(cudaMalloc(&tmp, tmp_bytes));
  auto op = [&] { CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, dx, dy, (int)n)); };
  op();
  std::string sz = "N=" + std::to_string(n);
  if (check("reduce", sz, to_host(dy, 1)[0] != want, 1)) report("reduce", sz, time_ms(op));
  CK(cudaFree(tmp));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

static void bench_scan(size_t n) {  // Table 5.2: Thrust's inclusive scan, i.e. CUB's
  std::vector<int> x = random_ints(n), want(n);
  int s = 0;
  for (size_t i = 0; i < n; i++) want[i] = s = wrap_add(s, x[i]);
  int *dx = to_device(x), *dy = device_poisoned(n);
  void *tmp = nullptr;
  size_t tmp_bytes = 0;
  CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, dx, dy, (int)n));
  CK(cudaMalloc(&tmp, tmp_bytes));
  auto op = [&] { CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, dx, dy, (int)n)); };
  op();
  std::string sz = "N=" + std::to_string(n);
  if (check("scan", sz, count_bad(to_host(dy, n), want), n)) report("scan", sz, time_ms(op));
  CK(cudaFree(tmp));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

int main(int argc, char **argv) {
  bool small = argc > 1 && strcmp(argv[1], "small") == 0;
  bool i27 = argc > 1 && strncmp(argv[1], "2027", 4) == 0, i27small = i27 && strcmp(argv[1], "2027small") == 0;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  fprintf(stderr, "fcl_peers: %s, runs %d (median, after %d warm-ups)\n", prop.name, RUNS, WARMUP);
  if (argc > 1 && strcmp(argv[1], "2027rs") == 0) {   // bench/gpu/fcl_2027b.sh: reduce and scan at 2^27
    const size_t N = (size_t)1 << 27;
    bench_copy(N);
    bench_copy_kernel(N);
    bench_reduce(N);
    bench_scan(N);
    fprintf(stderr, "fcl_peers: %d check failure(s)\n", failures);
    return failures ? 1 : 0;
  }
  if (i27) {   // issue 15's sizes: 2^27 ints, 8192 x 16384, matmul 2048² doubles
    const size_t N = i27small ? 65536 : (size_t)1 << 27, R = i27small ? 128 : 8192, C = i27small ? 512 : 16384, M = i27small ? 256 : 2048;
    cublasHandle_t h;
    CB(cublasCreate(&h));
    bench_copy(N);
    bench_copy_kernel(N);
    bench_reverse(N);
    bench_transpose(R, C);
    bench_sgeam(h, R, C);
    bench_reduce(N);
    bench_scan(N);
    bench_matmul(M);
    bench_dgemm(h, M);
    CB(cublasDestroy(h));
    fprintf(stderr, "fcl_peers: %d check failure(s)\n", failures);
    return failures ? 1 : 0;
  }
  const size_t N = small ? 70001 : 1 << 24, R = small ? 300 : 4096, C = small ? 250 : 4096;
  bench_copy(N);
  bench_reverse(N);
  bench_transpose(R, C);
  bench_reduce_part(N);
  const size_t mm[] = { 1024, 2048 };
  for (size_t n : mm) bench_matmul(small ? 64 : n);
  bench_reduce(N);
  bench_scan(N);
  fprintf(stderr, "fcl_peers: %d check failure(s)\n", failures);
  return failures ? 1 : 0;
}
