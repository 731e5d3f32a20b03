/* arena.c — bump allocator in chained blocks. Nothing is freed piecemeal
   (house style: arenas, no ownership puzzles). */
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

typedef struct Block { struct Block *prev; size_t size, used; max_align_t data[]; } Block;
static Block *top;

static Block *block_new(size_t need, Block *prev) {
  size_t size = need > (1u << 20) ? need : (1u << 20);
  Block *b = malloc(sizeof(Block) + size);
  if (!b) { fputs("clift: out of memory\n", stderr); abort(); }
  b->prev = prev; b->size = size; b->used = 0;
  return b;
}

void *arena_alloc(size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (!top || top->size - top->used < size) top = block_new(size, top);
  void *p = (char *)top->data + top->used;
  top->used += size;
  memset(p, 0, size);
  return p;
}

ArenaMark arena_mark(void) { return (ArenaMark){ top, top ? top->used : 0 }; }

void arena_release(ArenaMark m) {
  while (top && top != (Block *)m.block) { Block *p = top->prev; free(top); top = p; }
  if (top) top->used = m.used;
}

void arena_free_all(void) { arena_release((ArenaMark){ NULL, 0 }); }

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

char *util_read_file(const char *path, size_t *len_out) {
  FILE *f = fopen(path, "rb");
  if (!f) { diag_error(LOC_NONE, "cannot open '%s': %s", path, strerror(errno)); return NULL; }
  Buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (b.len + n + 1 > b.cap) {
      size_t cap = b.cap ? b.cap * 2 : 65536;
      while (cap < b.len + n + 1) cap *= 2;
      char *d = arena_alloc(cap);
      if (b.len) memcpy(d, b.data, b.len);
      b.data = d; b.cap = cap;
    }
    memcpy(b.data + b.len, chunk, n);
    b.len += n;
  }
  bool bad = ferror(f);
  int err = errno;
  fclose(f);
  if (bad) { diag_error(LOC_NONE, "cannot read '%s': %s", path, strerror(err)); return NULL; }
  if (!b.data) b.data = arena_alloc(1);
  b.data[b.len] = 0;
  if (len_out) *len_out = b.len;
  return b.data;
}
