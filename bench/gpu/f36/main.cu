// f36 probe: the kernel clift generated for difftest seed 110000080 (kernel.cu, verbatim),
// launched alone with nvcc's code: is the wrong answer (120 for 2) NVVM's or clift's host?
#include <cstdio>
#include "kernel.cu"
int main() {
  clift_tuple_float_int32_t *out, h;
  int *err, herr[5];
  cudaMalloc(&out, sizeof h); cudaMalloc(&err, sizeof herr); cudaMemset(err, 0, sizeof herr);
  long long ns[] = { 1, 2, 3, 5, 8, 100, 127, 128, 1000 };
  for (long long n : ns) {
    cudaMemset(out, 0, sizeof h);
    k0<<<1, 1>>>(out, n, err);
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(herr, err, sizeof herr, cudaMemcpyDeviceToHost);
    printf("N=%lld: (%g, %d) error cell %d (expected f1 = 2)\n", n, h.f0, h.f1, herr[0]);
  }
  return 0;
}
