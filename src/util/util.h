/* util.h — arena allocation, growable strings, diagnostics. Shared by every stage. */
#ifndef CLIFT_UTIL_H
#define CLIFT_UTIL_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- arena: everything a compilation allocates; released as a whole ---- */
void *arena_alloc(size_t size);          /* zeroed memory, never NULL (exit 1 with a message on OOM) */
void *arena_try_alloc(size_t size);      /* uninitialised memory, NULL when there is none */
char *arena_strdup(const char *s);
char *arena_strndup(const char *s, size_t n);
char *arena_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
typedef struct ArenaMark { void *block; size_t used; } ArenaMark;
ArenaMark arena_mark(void);               /* remember the current top */
void arena_release(ArenaMark mark);       /* free everything allocated after mark */
bool arena_since(ArenaMark mark, const void *p);  /* p was allocated after mark (and is live) */
void arena_free_all(void);
#define NEW(T) ((T *)arena_alloc(sizeof(T)))
#define NEW_ARRAY(T, n) ((T *)arena_alloc(sizeof(T) * (size_t)((n) > 0 ? (n) : 1)))

/* ---- growable arrays (arena backed): a pointer, a count and a capacity ----
   ARENA_PUSH(items, n, cap, x) stores x at items[n++], first moving items to an
   arena block twice as large when n has reached cap (items NULL, n and cap 0 to
   start). What grows with the program (loops, declarations, inputs) has no
   fixed capacity to drop its tail silently. */
void *arena_grow(void *items, int n, int *cap, size_t size);   /* room for items[n] */
#define ARENA_PUSH(items, n, cap, x) \
  ((items) = arena_grow((items), (n), &(cap), sizeof *(items)), (items)[(n)++] = (x))

/* ---- growable string buffer (arena backed) ---- */
typedef struct Buf { char *data; size_t len, cap; } Buf;
void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
const char *buf_str(Buf *b);             /* NUL-terminated contents ("" when empty) */

/* ---- source locations and diagnostics ---- */
typedef struct Loc { const char *file; int line, col; } Loc;
extern const Loc LOC_NONE;               /* for errors with no place (inputs, runtime) */

/* Register a source text so errors can quote the offending line. */
void diag_add_source(const char *file, const char *text);
/* Record an error. The first error is kept; returns false so callers can
   `return diag_error(...)` from bool functions. Never exits. */
bool diag_error(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record an internal error of clift: generated code that the C compiler, the
   OpenCL build or NVRTC rejects (SPEC §8). `loc` is the program's place. */
bool diag_internal(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record that the program is valid but the target cannot run it yet (SPEC §8:
   refused early, "not supported on TARGET: why"). `fmt` gives the why; the
   driver, which knows the target, names it (diag_name_target). */
bool diag_unsupported(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_name_target(const char *target);   /* "why" -> "not supported on TARGET: why" */
/* The place a refusal (diag_unsupported) recorded without one of its own is
   reported at: the innermost expression being translated (dpia), else the
   program (the driver); LOC_NONE: none. Returns the one it replaces, for the
   caller to put back. */
Loc diag_context(Loc loc);
/* What the recorded error is: tests skip a DIAG_UNSUPPORTED, never match its text. */
typedef enum { DIAG_NONE, DIAG_ERROR, DIAG_UNSUPPORTED, DIAG_INTERNAL } DiagKind;
DiagKind diag_kind(void);
bool diag_has_error(void);
const char *diag_message(void);          /* the message alone, "" if none */
/* The full report: "file:line:col: error: msg\n<source line>\n<caret>\n"
   (a long source line cut around the caret); internal errors say so. */
const char *diag_render(void);
void diag_clear(void);
/* Set the current error aside (cleared) and return a handle for diag_raise; -1
   (nothing set aside) when there is no error or it is internal. The interpreter
   uses this for an element of a lazy map that fails: the error is raised only if
   the element is read (docs/language.md, "Run-time errors"). */
int diag_set_aside(void);
bool diag_raise(int handle);             /* record the error set aside again; false */
/* diag_clear, and forget every registered source: for a process that compiles
   unrelated programs one after another without end (the fuzzer, tests/fuzz). */
void diag_reset(void);

/* Read a whole file into the arena; NULL (and a diag) on failure. */
char *util_read_file(const char *path, size_t *len_out);
/* Write `nparts` byte ranges as the file `path`, all or nothing (a temporary
   and a rename; file.c). false + diag naming `path` on failure. */
bool util_write_file(const char *path, int nparts, const void *const *parts, const size_t *lens);
bool util_write_text(const char *path, const char *text);   /* one NUL-terminated part */
/* mkdir -p; an error when `path` exists and is not a directory. */
bool util_make_dirs(const char *path);
int util_make_dirs_errno(const char *path);   /* the same, quietly: 0 or an errno */
/* DIR/FILE, with DIR exactly as the user gave it ("out/" gives "out/FILE"). */
const char *util_path_in(const char *dir, const char *file);
/* The cache of compiled code (shared objects, cubins; docs/runtime.md §3):
   $XDG_CACHE_HOME/clift, else $HOME/.cache/clift, else a private /tmp/clift-UID;
   NULL + diag when none can be made. */
const char *util_cache_dir(void);
/* DIR/KEY.ext in that cache for a cache that may be missing (cubins, NVIDIA
   build logs): NULL, and no diag, when there is no cache directory. */
const char *util_cache_file(unsigned long long key, const char *ext);
/* 64-bit FNV-1a of s and its NUL (the NUL keeps ("ab","c") apart from
   ("a","bc")), from h; start from UTIL_FNV_BASIS. The caches' keys. */
#define UTIL_FNV_BASIS 0xcbf29ce484222325ull
unsigned long long util_fnv1a(unsigned long long h, const char *s);

/* A hash map from pointers (compared as such) or NUL-terminated strings
   (str: compared by content) to non-NULL pointers, in the arena (map.c). A
   zeroed UtilMap is empty. util_map_put replaces a key's value. */
typedef struct UtilMap { const void **keys; void **vals; bool *strs; int n, cap; } UtilMap;
void util_map_put(UtilMap *m, const void *key, bool str, void *val);
void *util_map_get(const UtilMap *m, const void *key, bool str);   /* NULL: absent */

#endif
