// lookback_harness.cpp — runs the one pass's cuda kernels (k0 clears, k1 the pass, k2 the
// filter's length) on the CPU through emu.h, with GEN the generated source, and
// checks the result: -DSCAN: an int prefix sum; else a filter x > THRESH, x * 2.
// GROUP and TILE: the pass's work-group and tile (dpia/lookback.c, CLIFT_LB_GROUP
// and CLIFT_LB_ITEMS). Blocks run one after another, in index order (a look-back
// only ever meets inclusive prefixes); argv[2] the number of blocks, 0: one a tile.
#include "emu.h"
#include GEN
#ifndef TILE
#define TILE 3840
#endif
#ifndef GROUP
#define GROUP 256
#endif
#include <vector>
#include <functional>

static void *run1(void *a) { auto *p = (std::pair<std::function<void()>*, unsigned>*)a; threadIdx = {p->second, 0, 0}; (*p->first)(); return 0; }
static void launch(unsigned grid, unsigned block, std::function<void()> k) {
  gridDim = {grid, 1, 1}; blockDim = {block, 1, 1};
  for (unsigned b = 0; b < grid; b++) {
    pthread_barrier_init(&emu_block, 0, block);
    for (int w = 0; w < 8; w++) pthread_barrier_init(&emu_warp[w], 0, block >= 32 * (w + 1) ? 32 : 1);
    std::vector<pthread_t> th(block);
    std::vector<std::pair<std::function<void()>*, unsigned>> args(block);
    std::function<void()> kb = [&, b]() { blockIdx = {b, 0, 0}; k(); };
    for (unsigned t = 0; t < block; t++) { args[t] = {&kb, t}; pthread_attr_t at; pthread_attr_init(&at); pthread_attr_setstacksize(&at, 1 << 18); pthread_create(&th[t], &at, run1, &args[t]); }
    for (unsigned t = 0; t < block; t++) pthread_join(th[t], 0);
    pthread_barrier_destroy(&emu_block);
    for (int w = 0; w < 8; w++) pthread_barrier_destroy(&emu_warp[w]);
  }
}
int main(int argc, char **argv) {
  long long N = atoll(argv[1]); int grid = argc > 2 ? atoi(argv[2]) : 3;
  long long tiles = (N + TILE - 1) / TILE;
  if (grid <= 0) grid = tiles > 0 ? (int)tiles : 1;
  std::vector<long long> status(tiles + 1); int counter = 0; int err[5] = {0};
  srand(N);
#ifdef SCAN
  std::vector<int> xs(N), out(N);
  for (auto &x : xs) x = rand() % 100;
  launch(1, 256, [&]() { k0(status.data(), &counter, N, err); });
  launch(grid, GROUP, [&]() { k1(out.data(), xs.data(), status.data(), &counter, N, err); });
  long long s = 0, bad = 0;
  for (long long i = 0; i < N; i++) { s += xs[i]; if (out[i] != (int)s && bad++ < 3) printf("scan: out[%lld] = %d, want %lld\n", i, out[i], s); }
  printf("scan N=%lld: %s\n", N, bad ? "FAIL" : "ok");
#else
  std::vector<float> xs(N);
  for (auto &x : xs) x = rand() / (RAND_MAX + 1.0f) * 2 - 1;
  std::vector<char> outb(((N * 4 + 63) / 64) * 64 + 64);
  launch(1, 256, [&]() { k0(status.data(), &counter, N, err); });
  launch(grid, GROUP, [&]() { k1((float *)outb.data(), xs.data(), status.data(), &counter, N, err); });
  launch(1, 1, [&]() { k2(outb.data(), status.data(), N, err); });
  int len = *(int *)(outb.data() + ((N * 4 + 63) / 64) * 64);
  long long k = 0, bad = 0;
  float *out = (float *)outb.data();
  for (long long i = 0; i < N; i++) if (xs[i] > THRESH) { if ((k >= len || out[k] != xs[i] * 2.0f) && bad++ < 3) printf("filter: out[%lld] = %g, want %g\n", k, k < len ? out[k] : -1.f, xs[i] * 2); k++; }
  if (k != len) { bad++; printf("filter: length %d, want %lld\n", len, k); }
  printf("filter>%g N=%lld: %s (kept %d)\n", (double)THRESH, N, bad ? "FAIL" : "ok", len);
#endif
  if (err[0]) { printf("error cell: site %d\n", err[0]); return 1; }
}
