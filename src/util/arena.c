/* arena.c — bump allocator in chained blocks. Nothing is freed piecemeal
   (house style: arenas, no ownership puzzles). */
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

typedef struct Block { struct Block *prev; size_t size, used; max_align_t data[]; } Block;
static Block *top;
/* Blocks of the standard size given back by arena_release, kept for reuse: a loop
   that marks and releases around each iteration (the interpreter) would otherwise
   malloc and free a block per iteration when it straddles a block boundary. */
enum { ARENA_BLOCK = 1 << 20, ARENA_SPARES = 4 };
static Block *spares[ARENA_SPARES];
static int nspares;

/* Out of memory is reported, never an abort: callers rely on arena_alloc never
   returning NULL, so there is no caller to hand the error to (the one exit outside
   main; large allocations that can fail on bad input use arena_try_alloc). */
static void out_of_memory(size_t size) {
  fflush(stdout);
  fprintf(stderr, "error: out of memory: cannot allocate %zu bytes for the compiler's and "
          "interpreter's data\n", size);
  exit(1);
}

static Block *block_new(size_t need, Block *prev) {
  Block *b = NULL;
  if (need <= ARENA_BLOCK && nspares) b = spares[--nspares];
  else {
    size_t size = need > ARENA_BLOCK ? need : ARENA_BLOCK;
    if (size > SIZE_MAX - sizeof(Block) || !(b = malloc(sizeof(Block) + size))) return NULL;
    b->size = size;
  }
  b->prev = prev; b->used = 0;
  return b;
}

static void block_free(Block *b) {
  if (b->size == ARENA_BLOCK && nspares < ARENA_SPARES) spares[nspares++] = b;
  else free(b);
}

/* Uninitialised memory, or NULL when the system has none. */
static void *arena_bump(size_t size) {
  if (size > SIZE_MAX - 15) return NULL;
  size = (size + 15) & ~(size_t)15;
  if (!top || top->size - top->used < size) {
    Block *b = block_new(size, top);
    if (!b) return NULL;
    top = b;
  }
  void *p = (char *)top->data + top->used;
  top->used += size;
  return p;
}

void *arena_alloc(size_t size) {
  void *p = arena_bump(size);
  if (!p) out_of_memory(size);
  memset(p, 0, size);
  return p;
}

void *arena_try_alloc(size_t size) { return arena_bump(size); }

ArenaMark arena_mark(void) { return (ArenaMark){ top, top ? top->used : 0 }; }

void arena_release(ArenaMark m) {
  while (top && top != (Block *)m.block) { Block *p = top->prev; block_free(top); top = p; }
  if (top) top->used = m.used;
}

bool arena_since(ArenaMark m, const void *p) {
  uintptr_t a = (uintptr_t)p;
  for (Block *b = top; b; b = b->prev) {
    uintptr_t lo = (uintptr_t)b->data + (b == m.block ? m.used : 0), hi = (uintptr_t)b->data + b->used;
    if (a >= lo && a < hi) return true;
    if (b == m.block) return false;
  }
  return false;
}

void arena_free_all(void) {
  arena_release((ArenaMark){ NULL, 0 });
  while (nspares) free(spares[--nspares]);
}

void *arena_grow(void *items, int n, int *cap, size_t size) {
  if (n < *cap) return items;
  int grown = *cap ? *cap * 2 : 8;
  while (grown <= n) grown *= 2;
  void *p = arena_alloc(size * (size_t)grown);
  if (n) memcpy(p, items, size * (size_t)n);
  *cap = grown;
  return p;
}

char *arena_strndup(const char *s, size_t n) {
  char *p = arena_alloc(n + 1);
  memcpy(p, s, n);
  return p;
}
char *arena_strdup(const char *s) { return arena_strndup(s, strlen(s)); }

char *arena_printf(const char *fmt, ...) {
  Buf b = {0};
  va_list ap; va_start(ap, fmt); buf_vprintf(&b, fmt, ap); va_end(ap);
  return (char *)buf_str(&b);
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  va_list ap2; va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->len + (size_t)n + 1) cap *= 2;
    char *d = arena_alloc(cap);
    if (b->len) memcpy(d, b->data, b->len);
    b->data = d; b->cap = cap;
  }
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}
void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); buf_vprintf(b, fmt, ap); va_end(ap);
}
void buf_puts(Buf *b, const char *s) { buf_printf(b, "%s", s); }
void buf_putc(Buf *b, char c) { buf_printf(b, "%c", c); }
const char *buf_str(Buf *b) { return b->data ? b->data : ""; }

/* Regular files are read into one exactly sized block (a 1 GB input costs 1 GB);
   pipes and the like grow by doubling. */
char *util_read_file(const char *path, size_t *len_out) {
  FILE *f = fopen(path, "rb");
  if (!f) { diag_error(LOC_NONE, "cannot open '%s': %s", path, strerror(errno)); return NULL; }
  struct stat st;
  size_t len = 0, cap = 0;
  char *data = NULL;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX - 64) {
    cap = (size_t)st.st_size + 2;   /* + the NUL, + room to see the end of file */
    if (!(data = arena_try_alloc(cap))) {
      fclose(f);
      diag_error(LOC_NONE, "cannot read '%s': out of memory (%zu bytes)", path, cap);
      return NULL;
    }
  }
  for (;;) {
    if (len + 1 >= cap) {   /* not regular, or it grew while we read */
      size_t ncap = cap ? cap * 2 : 65536;
      char *d = ncap > cap ? arena_try_alloc(ncap) : NULL;
      if (!d) {
        fclose(f);
        diag_error(LOC_NONE, "cannot read '%s': out of memory (%zu bytes)", path, ncap);
        return NULL;
      }
      if (len) memcpy(d, data, len);
      data = d; cap = ncap;
    }
    size_t n = fread(data + len, 1, cap - 1 - len, f);
    len += n;
    if (n == 0) break;
  }
  bool bad = ferror(f);
  int err = errno;
  fclose(f);
  if (bad) { diag_error(LOC_NONE, "cannot read '%s': %s", path, strerror(err)); return NULL; }
  data[len] = 0;
  if (len_out) *len_out = len;
  return data;
}
