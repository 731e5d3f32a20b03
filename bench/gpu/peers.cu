// peers.cu — vendor and hand-written CUDA peers for the clift GPU benchmark
// (bench/gpu/run.sh). Build on the GPU machine:
//     nvcc -O3 -arch=sm_90 peers.cu -lcublas -o peers
// Usage: peers [small] [BENCH…]   ("small": tiny sizes, a smoke test of the
// checks; BENCH…: only those benchmarks' peers, by base name, e.g. `trmv`;
// the copy bandwidth is always measured: the report's "% copy BW" needs it)
//
// For every benchmark and size: fresh random inputs (uniform in [-1, 1), a new
// seed per benchmark), the result checked once against a simple CPU reference
// (double accumulation; large products checked on sampled entries), then
// warm-up runs and RUNS timed runs, each between two cudaEvents; the median is
// printed as one machine-readable line
//     peer NAME SIZE MEDIAN_MS
// and a failed check as
//     peerfail NAME SIZE reason
// NAME is the benchmark name for the peer the report compares with (scal,
// asum, dot, gemv, sum, transpose, jacobi, sgemm, filter, filter_1pct, scan)
// and a descriptive name for the others (copy_kernel, memcpy_d2d,
// transpose_copy, transpose_naive, transpose_tiled), and for trmv, whose
// report compares with several peers: trmv_strmv_lower, trmv_stpmv_lower,
// trmv_stpmv_n_lower and the same with _upper (bench_trmv). SIZE uses clift's
// size variables: N=… or N=…,M=….
#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <thrust/iterator/transform_output_iterator.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

static const int WARMUP = 5;
static const int RUNS = 100;   // >= 50 (METHOD.md: many runs, median)
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
#define CB(call)                                                                   \
  do {                                                                             \
    cublasStatus_t s_ = (call);                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                             \
      fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #call,  \
              (int)s_);                                                            \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)
#define CKLAUNCH() CK(cudaGetLastError())

// ---------------------------------------------------------------- helpers
static uint64_t seed_state = 0;
static uint64_t next_u64() {  // xorshift64*
  seed_state ^= seed_state >> 12;
  seed_state ^= seed_state << 25;
  seed_state ^= seed_state >> 27;
  return seed_state * 0x2545F4914F6CDD1DULL;
}
static void fresh_seed() {
  static uint64_t counter = 0;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  seed_state = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)ts.tv_sec ^ (++counter << 32);
  if (!seed_state) seed_state = 1;
}
static float uniform() {  // [-1, 1)
  return (float)((next_u64() >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}
static std::vector<float> random_vec(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = uniform();
  return v;
}
static float *to_device(const std::vector<float> &h) {
  float *d;
  CK(cudaMalloc(&d, h.size() * sizeof(float)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}
static float *device_poisoned(size_t n) {  // NaN everywhere: unwritten outputs fail the check
  float *d;
  CK(cudaMalloc(&d, n * sizeof(float)));
  CK(cudaMemset(d, 0xff, n * sizeof(float)));
  return d;
}
static std::vector<float> to_host(const float *d, size_t n) {
  std::vector<float> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

// median over RUNS timed runs after WARMUP warm-ups, each between two events;
// pre() runs before each (not timed: restoring an input an in-place op overwrote)
static double time_ms_pre(const std::function<void()> &pre, const std::function<void()> &op, int runs = RUNS) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  for (int i = 0; i < WARMUP; i++) {
    pre();
    op();
  }
  CK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int i = 0; i < runs; i++) {
    pre();
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
static double time_ms(const std::function<void()> &op, int runs = RUNS) { return time_ms_pre([] {}, op, runs); }

static std::string vsize(size_t n) { return "N=" + std::to_string(n); }
static std::string msize(size_t rows, size_t cols) {  // clift's gemv: N rows? keep both
  return "N=" + std::to_string(rows) + ",M=" + std::to_string(cols);
}
static void report(const char *name, const std::string &size, double ms) {
  printf("peer %s %s %.5f\n", name, size.c_str(), ms);
  fflush(stdout);
}
// the check: err <= tol (err already relative); prints and counts a failure
static bool check(const char *name, const std::string &size, double err, double tol) {
  if (!(err <= tol)) {  // NaN fails too
    printf("peerfail %s %s check error %.3g > tolerance %.3g\n", name, size.c_str(), err, tol);
    fflush(stdout);
    failures++;
    return false;
  }
  fprintf(stderr, "check %s %s ok (error %.3g, tolerance %.3g)\n", name, size.c_str(), err, tol);
  return true;
}
// elementwise max |got - want| / max(|want|, floor)
static double max_rel(const std::vector<float> &got, const std::vector<double> &want, double floor_) {
  double e = 0;
  for (size_t i = 0; i < got.size(); i++) {
    double d = std::fabs((double)got[i] - want[i]) / std::max(std::fabs(want[i]), floor_);
    if (!(d <= e)) e = d;  // NaN propagates
  }
  return e;
}

// ---------------------------------------------------------------- kernels
__global__ void copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
    out[i] = in[i];
}
static void launch_copy(const float *in, float *out, size_t n, int sms) {  // n % 4 == 0
  copy_kernel<<<sms * 8, 256>>>((const float4 *)in, (float4 *)out, n / 4);
}

// naive transpose: out[c][r] = in[r][c], in is rows x cols; reads coalesced, writes strided
__global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
// tiled transpose through shared memory (32x32 tile, 32x8 threads, padded rows)
__global__ void transpose_tiled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float tile[32][33];
  int c = blockIdx.x * 32 + threadIdx.x, r0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += 8)
    if (r0 + j < rows && c < cols) tile[j][threadIdx.x] = in[(size_t)(r0 + j) * cols + c];
  __syncthreads();
  int oc = r0 + threadIdx.x, or0 = blockIdx.x * 32;  // out is cols x rows
  for (int j = threadIdx.y; j < 32; j += 8)
    if (or0 + j < cols && oc < rows) out[(size_t)(or0 + j) * rows + oc] = tile[threadIdx.x][j];
}

// 5-point Jacobi with clamped (edge-replicating) boundaries, rows x cols
__global__ void jacobi5(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  int up = max(i - 1, 0), dn = min(i + 1, rows - 1), lf = max(j - 1, 0), rt = min(j + 1, cols - 1);
  const float *row = in + (size_t)i * cols;
  float s = row[j] + in[(size_t)up * cols + j] + in[(size_t)dn * cols + j] + row[lf] + row[rt];
  out[(size_t)i * cols + j] = 0.2f * s;
}

// ---------------------------------------------------------------- benchmarks
static int SMS = 132;

static void bench_copy(size_t n) {
  fresh_seed();
  std::vector<float> h = random_vec(n);
  float *in = to_device(h), *out = device_poisoned(n);
  launch_copy(in, out, n, SMS);
  CKLAUNCH();
  std::vector<float> g = to_host(out, n);
  bool ok = memcmp(g.data(), h.data(), n * sizeof(float)) == 0;
  if (check("copy_kernel", vsize(n), ok ? 0.0 : 1.0, 0.0))
    report("copy_kernel", vsize(n), time_ms([&] { launch_copy(in, out, n, SMS); }));
  CK(cudaMemset(out, 0xff, n * sizeof(float)));
  CK(cudaMemcpy(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice));
  g = to_host(out, n);
  ok = memcmp(g.data(), h.data(), n * sizeof(float)) == 0;
  if (check("memcpy_d2d", vsize(n), ok ? 0.0 : 1.0, 0.0))
    report("memcpy_d2d", vsize(n), time_ms([&] {
             CK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice));
           }));
  CK(cudaFree(in));
  CK(cudaFree(out));
}

static void bench_scal(cublasHandle_t h, size_t n) {
  fresh_seed();
  std::vector<float> x = random_vec(n);
  float alpha = 0.5f + 0.5f * (uniform() + 1.0f), inv = 1.0f / alpha;  // in [0.5, 1.5)
  float *d = to_device(x);
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  CB(cublasSscal(h, (int)n, &alpha, d, 1));
  std::vector<float> g = to_host(d, n);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; i++) want[i] = (double)alpha * x[i];
  // in place: alternate alpha and 1/alpha so that the values stay in range
  int k = 0;
  if (check("scal", vsize(n), max_rel(g, want, 1e-6), 1e-6))
    report("scal", vsize(n), time_ms([&] { CB(cublasSscal(h, (int)n, (k++ & 1) ? &alpha : &inv, d, 1)); }));
  CK(cudaFree(d));
}

static void bench_asum_dot(cublasHandle_t h, size_t n, bool dot) {
  const char *name = dot ? "dot" : "asum";
  fresh_seed();
  std::vector<float> x = random_vec(n), y = dot ? random_vec(n) : std::vector<float>();
  float *dx = to_device(x), *dy = dot ? to_device(y) : nullptr, *dr = device_poisoned(1);
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));  // no host sync inside the timed region
  auto op = [&] {
    if (dot) CB(cublasSdot(h, (int)n, dx, 1, dy, 1, dr));
    else CB(cublasSasum(h, (int)n, dx, 1, dr));
  };
  op();
  float got = to_host(dr, 1)[0];
  double want = 0, mag = 0;
  for (size_t i = 0; i < n; i++) {
    double t = dot ? (double)x[i] * y[i] : std::fabs((double)x[i]);
    want += t;
    mag += std::fabs(t);
  }
  // error relative to sum |terms| (the sum itself may cancel)
  if (check(name, vsize(n), std::fabs(got - want) / mag, 1e-5)) report(name, vsize(n), time_ms(op));
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  CK(cudaFree(dx));
  if (dy) CK(cudaFree(dy));
  CK(cudaFree(dr));
}

// y = A x with A row-major [rows][cols] (clift: (array-type (array-type float N) M) has
// M rows of N; the sizes used are square). Column-major view of A is cols x rows, lda = cols,
// so y = (view)^T x: CUBLAS_OP_T.
static void bench_gemv(cublasHandle_t h, size_t rows, size_t cols) {
  fresh_seed();
  std::vector<float> A = random_vec(rows * cols), x = random_vec(cols);
  float *dA = to_device(A), *dx = to_device(x), *dy = device_poisoned(rows);
  const float one = 1.0f, zero = 0.0f;
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  auto op = [&] { CB(cublasSgemv(h, CUBLAS_OP_T, (int)cols, (int)rows, &one, dA, (int)cols, dx, 1, &zero, dy, 1)); };
  op();
  std::vector<float> g = to_host(dy, rows);
  double err = 0;
  for (size_t r = 0; r < rows; r++) {
    double s = 0, mag = 0;
    for (size_t c = 0; c < cols; c++) {
      double t = (double)A[r * cols + c] * x[c];
      s += t;
      mag += std::fabs(t);
    }
    double e = std::fabs(g[r] - s) / mag;
    if (!(e <= err)) err = e;
  }
  std::string sz = msize(rows, cols);
  if (check("gemv", sz, err, 1e-5)) report("gemv", sz, time_ms(op));
  CK(cudaFree(dA));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

static void bench_sum(size_t n) {
  fresh_seed();
  std::vector<float> x = random_vec(n);
  float *dx = to_device(x), *dr = device_poisoned(1);
  void *tmp = nullptr;
  size_t tmp_bytes = 0;
  CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, dx, dr, (int64_t)n));
  CK(cudaMalloc(&tmp, tmp_bytes));
  auto op = [&] { CK(cub::DeviceReduce::Sum(tmp, tmp_bytes, dx, dr, (int64_t)n)); };
  op();
  float got = to_host(dr, 1)[0];
  double want = 0, mag = 0;
  for (size_t i = 0; i < n; i++) {
    want += x[i];
    mag += std::fabs((double)x[i]);
  }
  if (check("sum", vsize(n), std::fabs(got - want) / mag, 1e-5)) report("sum", vsize(n), time_ms(op));
  CK(cudaFree(tmp));
  CK(cudaFree(dx));
  CK(cudaFree(dr));
}

// transpose of a rows x cols row-major matrix; the bound is a plain copy of as many floats
static void bench_transpose(cublasHandle_t h, size_t rows, size_t cols) {
  fresh_seed();
  size_t n = rows * cols;
  std::vector<float> A = random_vec(n);
  float *dA = to_device(A), *dT = device_poisoned(n);
  std::string sz = msize(rows, cols);
  auto verify = [&](const char *name) {
    std::vector<float> g = to_host(dT, n);
    size_t bad = 0;
    for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++) bad += g[c * rows + r] != A[r * cols + c];
    CK(cudaMemset(dT, 0xff, n * sizeof(float)));
    return check(name, sz, bad ? 1.0 : 0.0, 0.0);
  };
  // copy of the same number of floats: the bandwidth bound
  launch_copy(dA, dT, n, SMS);
  CKLAUNCH();
  {
    std::vector<float> g = to_host(dT, n);
    if (check("transpose_copy", sz, memcmp(g.data(), A.data(), n * 4) ? 1.0 : 0.0, 0.0))
      report("transpose_copy", sz, time_ms([&] { launch_copy(dA, dT, n, SMS); }));
  }
  dim3 blk(32, 8), grd((unsigned)((cols + 31) / 32), (unsigned)((rows + 7) / 8));
  transpose_naive<<<grd, blk>>>(dA, dT, (int)rows, (int)cols);
  CKLAUNCH();
  if (verify("transpose_naive"))
    report("transpose_naive", sz, time_ms([&] { transpose_naive<<<grd, blk>>>(dA, dT, (int)rows, (int)cols); }));
  dim3 grt((unsigned)((cols + 31) / 32), (unsigned)((rows + 31) / 32));
  transpose_tiled<<<grt, blk>>>(dA, dT, (int)rows, (int)cols);
  CKLAUNCH();
  if (verify("transpose_tiled"))
    report("transpose_tiled", sz, time_ms([&] { transpose_tiled<<<grt, blk>>>(dA, dT, (int)rows, (int)cols); }));
  // cuBLAS: C = alpha op(A) + beta op(B) with op = T. Column-major view of row-major
  // A is cols x rows (lda = cols); its transpose is rows x cols column-major = the
  // row-major transpose (cols x rows), ldc = rows.
  const float one = 1.0f, zero = 0.0f;
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  auto geam = [&] {
    CB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)rows, (int)cols, &one, dA, (int)cols, &zero, dT,
                   (int)rows, dT, (int)rows));
  };
  geam();
  if (verify("transpose")) report("transpose", sz, time_ms(geam));  // vendor: cublasSgeam
  CK(cudaFree(dA));
  CK(cudaFree(dT));
}

static void bench_jacobi(size_t rows, size_t cols) {
  fresh_seed();
  size_t n = rows * cols;
  std::vector<float> A = random_vec(n);
  float *dA = to_device(A), *dB = device_poisoned(n);
  dim3 blk(32, 8), grd((unsigned)((cols + 31) / 32), (unsigned)((rows + 7) / 8));
  auto op = [&] { jacobi5<<<grd, blk>>>(dA, dB, (int)rows, (int)cols); };
  op();
  CKLAUNCH();
  std::vector<float> g = to_host(dB, n);
  std::vector<double> want(n), mag(n);
  auto at = [&](long i, long j) {
    i = std::min(std::max(i, 0L), (long)rows - 1);
    j = std::min(std::max(j, 0L), (long)cols - 1);
    return (double)A[(size_t)i * cols + j];
  };
  for (long i = 0; i < (long)rows; i++)
    for (long j = 0; j < (long)cols; j++) {
      want[(size_t)i * cols + j] = 0.2 * (at(i, j) + at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
      mag[(size_t)i * cols + j] = 0.2 * (std::fabs(at(i, j)) + std::fabs(at(i - 1, j)) + std::fabs(at(i + 1, j)) +
                                         std::fabs(at(i, j - 1)) + std::fabs(at(i, j + 1)));
    }
  double err = 0;  // relative to the sum of |terms| (the sum may cancel)
  for (size_t k = 0; k < n; k++) {
    double e = std::fabs(g[k] - want[k]) / std::max(mag[k], 1e-30);
    if (!(e <= err)) err = e;
  }
  std::string sz = msize(rows, cols);
  if (check("jacobi", sz, err, 1e-5)) report("jacobi", sz, time_ms(op));
  CK(cudaFree(dA));
  CK(cudaFree(dB));
}

// row-major C = A B (n x n): column-major C^T = B^T A^T, i.e. sgemm(N, N) with B first
static void bench_sgemm(cublasHandle_t h, size_t n) {
  fresh_seed();
  std::vector<float> A = random_vec(n * n), B = random_vec(n * n);
  float *dA = to_device(A), *dB = to_device(B), *dC = device_poisoned(n * n);
  const float one = 1.0f, zero = 0.0f;
  int N = (int)n;
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  CB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));  // plain fp32, no tf32
  auto op = [&] { CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, dB, N, dA, N, &zero, dC, N)); };
  op();
  std::vector<float> g = to_host(dC, n * n);
  // every element written (no NaN left), and 512 sampled entries against double sums
  double err = 0;
  for (size_t i = 0; i < n * n; i++)
    if (std::isnan(g[i])) err = NAN;
  for (int s = 0; s < 512 && !std::isnan(err); s++) {
    size_t i = next_u64() % n, j = next_u64() % n;
    double sum = 0, mag = 0;
    for (size_t k = 0; k < n; k++) {
      double t = (double)A[i * n + k] * B[k * n + j];
      sum += t;
      mag += std::fabs(t);
    }
    double e = std::fabs(g[i * n + j] - sum) / mag;
    if (!(e <= err)) err = e;
  }
  std::string sz = "N=" + std::to_string(n);
  if (check("sgemm", sz, err, 1e-5)) report("sgemm", sz, time_ms(op, 50));
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
}

// filter.lift / filter_1pct.lift: keep x > t, times 2 (t = 0: half of the uniform
// [-1, 1) inputs kept; t = 0.98: 1%). cub::DeviceSelect::If with the predicate,
// writing through a thrust::transform_output_iterator that doubles each kept
// element (no second pass), the number selected written to device memory (no
// host sync inside the timed region). Checked exactly: the count, and every kept
// element in order (x * 2 is exact); the output is poisoned (NaN) first.
struct GreaterThan {
  float t;
  __host__ __device__ bool operator()(const float &x) const { return x > t; }
};
struct Times2 {
  __host__ __device__ float operator()(const float &x) const { return x * 2.0f; }
};
static void bench_filter(const char *name, size_t n, float t) {
  fresh_seed();
  std::vector<float> x = random_vec(n);
  std::vector<float> want;
  want.reserve(n);
  for (size_t i = 0; i < n; i++)
    if (x[i] > t) want.push_back(x[i] * 2.0f);
  float *dx = to_device(x), *dout = device_poisoned(n);
  int *dnum;
  CK(cudaMalloc(&dnum, sizeof(int)));
  CK(cudaMemset(dnum, 0xff, sizeof(int)));  // -1
  auto out = thrust::make_transform_output_iterator(dout, Times2{});
  void *tmp = nullptr;
  size_t tmp_bytes = 0;
  CK(cub::DeviceSelect::If(tmp, tmp_bytes, dx, out, dnum, (int64_t)n, GreaterThan{t}));
  CK(cudaMalloc(&tmp, tmp_bytes));
  auto op = [&] { CK(cub::DeviceSelect::If(tmp, tmp_bytes, dx, out, dnum, (int64_t)n, GreaterThan{t})); };
  op();
  CKLAUNCH();
  int got_n = -1;
  CK(cudaMemcpy(&got_n, dnum, sizeof(int), cudaMemcpyDeviceToHost));
  std::string sz = vsize(n);
  double err = 0;
  if (got_n != (int)want.size()) {
    fprintf(stderr, "%s %s: %d selected, expected %zu\n", name, sz.c_str(), got_n, want.size());
    err = 1;
  } else {
    std::vector<float> g = to_host(dout, want.size());
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); i++) bad += !(g[i] == want[i]);  // NaN (unwritten) counts
    if (bad) fprintf(stderr, "%s %s: %zu of %zu kept elements wrong\n", name, sz.c_str(), bad, want.size());
    err = bad ? 1 : 0;
  }
  fprintf(stderr, "%s %s: %zu of %zu kept (%.2f%%), threshold %g\n", name, sz.c_str(), want.size(), n,
          100.0 * want.size() / n, t);
  if (check(name, sz, err, 0.0)) report(name, sz, time_ms(op));
  CK(cudaFree(tmp));
  CK(cudaFree(dx));
  CK(cudaFree(dout));
  CK(cudaFree(dnum));
}

// scan.lift: inclusive prefix sum, cub::DeviceScan::InclusiveSum. Two checks
// first: exact on a vector of random ±1 (every partial sum is a small integer,
// so any order of additions gives the exact prefix sums), then on the uniform
// [-1, 1) input that is timed: max |got - want| over max(1, max |want|), want
// the float64 prefix sums (a tile-parallel float32 scan lands near 5e-6 at
// 2^27 by simulation, a sequential one near 1e-4; a lost or doubled tile gives
// ~1e-3 and more)
static void bench_scan(size_t n) {
  fresh_seed();
  std::vector<float> pm(n);
  for (size_t i = 0; i < n; i++) pm[i] = (next_u64() >> 63) ? 1.0f : -1.0f;
  float *dx = to_device(pm), *dy = device_poisoned(n);
  void *tmp = nullptr;
  size_t tmp_bytes = 0;
  CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, dx, dy, (int64_t)n));
  CK(cudaMalloc(&tmp, tmp_bytes));
  auto op = [&] { CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, dx, dy, (int64_t)n)); };
  op();
  CKLAUNCH();
  std::string sz = vsize(n);
  {
    std::vector<float> g = to_host(dy, n);
    long long s = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      s += (long long)pm[i];
      bad += !(g[i] == (float)s);
    }
    if (bad) fprintf(stderr, "scan %s: %zu of %zu prefix sums of ±1 wrong\n", sz.c_str(), bad, n);
    if (!check("scan", sz, bad ? 1.0 : 0.0, 0.0)) {
      CK(cudaFree(tmp));
      CK(cudaFree(dx));
      CK(cudaFree(dy));
      return;
    }
  }
  std::vector<float> x = random_vec(n);
  std::vector<float>().swap(pm);
  CK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemset(dy, 0xff, n * sizeof(float)));
  op();
  CKLAUNCH();
  std::vector<float> g = to_host(dy, n);
  double s = 0, m = 1, e = 0;
  for (size_t i = 0; i < n; i++) {
    s += x[i];
    m = std::max(m, std::fabs(s));
    double d = std::fabs((double)g[i] - s);
    if (!(d <= e)) e = d;  // NaN propagates
  }
  if (check("scan", sz, e / m, 1e-4)) report("scan", sz, time_ms(op));
  CK(cudaFree(tmp));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

// trmv.lift and its variants: y = T v, T triangular, N x N. clift reads T packed
// ROW-major: lower, row i = L[i][0..i] at offset i(i+1)/2; upper, row i =
// U[i][i..N-1] at offset iN - i(i-1)/2 (N(N+1)/2 floats). cuBLAS's packed
// storage is COLUMN-major: column j of a packed upper matrix B holds B[0..j][j],
// so the row-major packed lower L is exactly the column-major packed upper
// B = L^T, and y = L v = B^T v: cublasStpmv(UPPER, T) on the very buffer clift
// reads (trmv_stpmv_lower); likewise the row-major packed upper U is the
// column-major packed lower C = U^T: cublasStpmv(LOWER, T) (trmv_stpmv_upper).
// trmv_stpmv_n_*: the same product with op N on a column-major packed copy of
// T itself (cuBLAS's own layout; in case op T is its slower path). trmv_strmv_*:
// cublasStrmv(uplo, N) on full N x N column-major storage built from the same
// packed data (zeros in the other triangle, which strmv does not read).
// strmv/stpmv work in place (x <- T x): each timed call starts from the input
// vector, restored by a device-to-device copy BEFORE the first event (not
// timed). Checked once against a float64 CPU reference computed from the packed
// row-major data, per row relative to sum |terms| (rows cancel), 1e-5.
static size_t packed_off(size_t n, size_t i, bool upper) {  // row-major packed row offset
  return upper ? i * n - i * (i - 1) / 2 : i * (i + 1) / 2;
}
static void bench_trmv(cublasHandle_t h, size_t n, bool upper) {
  fresh_seed();
  const char *ul = upper ? "upper" : "lower";
  size_t np = n * (n + 1) / 2;
  std::vector<float> P = random_vec(np), x = random_vec(n);
  // the reference, from the row-major packed data
  std::vector<double> want(n), mag(n);
  for (size_t i = 0; i < n; i++) {
    size_t off = packed_off(n, i, upper), len = upper ? n - i : i + 1, c0 = upper ? i : 0;
    double s = 0, m = 0;
    for (size_t k = 0; k < len; k++) {
      double t = (double)P[off + k] * x[c0 + k];
      s += t;
      m += std::fabs(t);
    }
    want[i] = s;
    mag[i] = m;
  }
  std::string sz = vsize(n);
  float *dx0 = to_device(x), *dx = device_poisoned(n);
  auto restore = [&] { CK(cudaMemcpyAsync(dx, dx0, n * sizeof(float), cudaMemcpyDeviceToDevice)); };
  auto verify = [&](const char *peer) {
    std::vector<float> g = to_host(dx, n);
    double err = 0;
    for (size_t i = 0; i < n; i++) {
      double e = std::fabs((double)g[i] - want[i]) / std::max(mag[i], 1e-30);
      if (!(e <= err)) err = e;
    }
    std::string name = std::string(peer) + "_" + ul;
    bool ok = check(name.c_str(), sz, err, 1e-5);
    return ok;
  };
  auto run = [&](const char *peer, const std::function<void()> &op) {
    restore();
    op();
    CKLAUNCH();
    if (verify(peer)) report((std::string(peer) + "_" + ul).c_str(), sz, time_ms_pre(restore, op));
  };
  CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  int N = (int)n;
  {  // packed, the same buffer: row-major lower = column-major packed upper of L^T (and vice versa), op T
    float *dP = to_device(P);
    cublasFillMode_t fm = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    run("trmv_stpmv", [&] { CB(cublasStpmv(h, fm, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, N, dP, dx, 1)); });
    CK(cudaFree(dP));
  }
  {  // packed, column-major packed T itself, op N
    std::vector<float> Q(np);
    size_t q = 0;
    for (size_t j = 0; j < n; j++) {  // column j: rows 0..j (upper) or j..n-1 (lower)
      size_t r0 = upper ? 0 : j, r1 = upper ? j : n - 1;
      for (size_t r = r0; r <= r1; r++) Q[q++] = P[packed_off(n, r, upper) + (upper ? j - r : j)];
    }
    float *dQ = to_device(Q);
    cublasFillMode_t fm = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    run("trmv_stpmv_n", [&] { CB(cublasStpmv(h, fm, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, N, dQ, dx, 1)); });
    CK(cudaFree(dQ));
  }
  {  // full storage, column-major, op N
    std::vector<float> A(n * n, 0.0f);
    for (size_t i = 0; i < n; i++) {
      size_t off = packed_off(n, i, upper), len = upper ? n - i : i + 1, c0 = upper ? i : 0;
      for (size_t k = 0; k < len; k++) A[(c0 + k) * n + i] = P[off + k];
    }
    float *dA = to_device(A);
    std::vector<float>().swap(A);
    cublasFillMode_t fm = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    run("trmv_strmv", [&] { CB(cublasStrmv(h, fm, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, N, dA, N, dx, 1)); });
    CK(cudaFree(dA));
  }
  CK(cudaFree(dx0));
  CK(cudaFree(dx));
}

int main(int argc, char **argv) {
  bool small = false;
  std::vector<std::string> only;  // benchmark base names; empty: all
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "small") == 0) small = true;
    else only.push_back(argv[i]);
  }
  auto want = [&](const char *b) { return only.empty() || std::find(only.begin(), only.end(), b) != only.end(); };
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  SMS = prop.multiProcessorCount;
  fprintf(stderr, "peers: %s, %d SMs, %.0f MB L2, runs %d (median, after %d warm-ups)\n", prop.name, SMS,
          prop.l2CacheSize / 1e6, RUNS, WARMUP);
  cublasHandle_t h;
  CB(cublasCreate(&h));
  const size_t V1 = small ? 1 << 16 : 1 << 24, V2 = small ? 1 << 18 : 1u << 27;
  const size_t G1 = small ? 256 : 4096, G2 = small ? 512 : 8192;
  bench_copy(V2);
  bench_copy(V1);
  if (want("scal")) bench_scal(h, V1), bench_scal(h, V2);
  if (want("asum")) bench_asum_dot(h, V1, false), bench_asum_dot(h, V2, false);
  if (want("dot")) bench_asum_dot(h, V1, true), bench_asum_dot(h, V2, true);
  if (want("gemv")) bench_gemv(h, G1, G1), bench_gemv(h, G2, G2);
  if (want("sum")) bench_sum(V2);
  if (want("transpose")) bench_transpose(h, G2, G2);
  if (want("jacobi")) bench_jacobi(G1, G1);
  if (want("sgemm")) bench_sgemm(h, G1);
  if (want("sgemm_big")) bench_sgemm(h, G2);
  if (want("copy_half")) bench_copy(V1 / 2);   // the bytes asum moves at V1
  if (want("filter")) {
    bench_filter("filter", V1, 0.0f);
    bench_filter("filter", V2, 0.0f);
    bench_filter("filter_1pct", V1, 0.98f);
    bench_filter("filter_1pct", V2, 0.98f);
  }
  if (want("scan")) bench_scan(V2);
  if (want("trmv")) {  // the sizes of run.sh's full_sizes trmv (SMALL: 256 1024)
    const size_t full[] = { 1024, 4096, 8192, 16000 }, tiny[] = { 256, 1024 };
    const size_t *ts = small ? tiny : full;
    size_t nts = small ? 2 : 4;
    for (size_t k = 0; k < nts; k++) {
      bench_trmv(h, ts[k], false);
      bench_trmv(h, ts[k], true);
    }
  }
  CB(cublasDestroy(h));
  fprintf(stderr, "peers: %d check failure(s)\n", failures);
  return failures ? 1 : 0;
}
