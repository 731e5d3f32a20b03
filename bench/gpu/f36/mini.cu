// f36 minimal kernels: r = max(r, c - (i + 1)) over i < n, r from 0: expected c - 1
#include <cstdio>
__global__ void kA(int *out, int n) { int r = 0; for (int i = 0; i < n; i++) r = max(r, 2 - i); out[0] = r; }
__global__ void kB(int *out, int n, float x) {
  int r = 0, c = (int)x;
  for (int i = 0; i < n; i++) r = max(r, c - (i + 1));
  out[0] = r;
}
__global__ void kC(int *out, float *fout, int n, float x) {
  int r = 0; float a = 1.25f;
  for (int i = 0; i < n; i++) {
    a = a + 1.75f * fminf(fmaxf((float)(i + 1), -4.0f), 4.0f) * 2.25f;
    r = max(r, (int)(x * 8.0f) - (i + 1));
  }
  out[0] = r; fout[0] = a;
}
__global__ void kD(int *out, int n) { int r = 0; for (long long i = 0; i < n; i++) r = max(r, 3 - (int)(i + 1)); out[0] = r; }
int main() {
  int *o, h; float *fo; cudaMalloc(&o, 4); cudaMalloc(&fo, 4);
  int ns[] = { 5, 8, 127 };
  for (int n : ns) {
    kA<<<1, 1>>>(o, n); cudaMemcpy(&h, o, 4, cudaMemcpyDeviceToHost); printf("kA n=%d: %d (want 2)\n", n, h);
    kB<<<1, 1>>>(o, n, 3.5f); cudaMemcpy(&h, o, 4, cudaMemcpyDeviceToHost); printf("kB n=%d: %d (want 2)\n", n, h);
    kC<<<1, 1>>>(o, fo, n, 0.4375f); cudaMemcpy(&h, o, 4, cudaMemcpyDeviceToHost); printf("kC n=%d: %d (want 2)\n", n, h);
    kD<<<1, 1>>>(o, n); cudaMemcpy(&h, o, 4, cudaMemcpyDeviceToHost); printf("kD n=%d: %d (want 2)\n", n, h);
  }
  return 0;
}
