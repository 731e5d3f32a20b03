/* cpu_run.c — one run of a c/openmp program: marshal the inputs, compile (cached),
   load, call `clift_run`, read the result back (SPEC §6, docs/runtime.md §1). */
#include "cpu_internal.h"
#include "check_report.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Loaded objects are never dlclose'd: an OpenMP program leaves libgomp's thread
   pool parked inside the library, and unloading it under those threads crashes.
   dlopen of the same path returns the same handle, so repeated runs cost nothing. */
bool cpu_load(const char *so_path, CpuEntry *entry) {
  dlerror();
  void *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return diag_error(LOC_NONE, "cannot load '%s': %s", so_path, dlerror());
  dlerror();
  void *sym = dlsym(handle, "clift_run");
  const char *err = dlerror();
  if (err || !sym)
    return diag_error(LOC_NONE, "the compiled program '%s' does not define clift_run: %s",
                      so_path, err ? err : "the symbol is NULL");
  *(void **)entry = sym;   /* POSIX's way to turn a symbol into a function pointer */
  return true;
}

/* Generated code that can fail at run time (an aref out of range, a zero
   divisor) defines the error cell `int clift_error[5]` (dpia/kernel.h) and
   fills it instead of crashing; NULL when it has none. */
static int32_t *error_cell(const char *so_path) {
  void *handle = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
  return handle ? (int32_t *)dlsym(handle, "clift_error") : NULL;
}

/* Buffers are malloc'd, not arena'd: they can be gigabytes that must go away right
   after the call (the arena lives for the whole compilation), and the kernels want
   64-byte alignment for vector loads. Zeroed so a kernel bug reads as zeros, not junk. */
static void *buffer_new(int64_t bytes, const char *what) {
  size_t size = ((size_t)bytes + 63) & ~(size_t)63;
  void *p = NULL;
  if (posix_memalign(&p, 64, size ? size : 64) != 0) {
    diag_error(LOC_NONE, "%s: cannot allocate %lld bytes", what, (long long)bytes);
    return NULL;
  }
  memset(p, 0, size ? size : 64);
  return p;
}

/* The result buffer comes from the arena instead: a regular array of scalars
   becomes the result value over it without a copy (layout_unpack_in_place).
   Cleared from byte `clear_from` on: a result of dynamic length clears only its
   lengths, so the pages of its upper bound that nothing keeps are never touched (F34). */
static void *result_buffer_new(int64_t bytes, int64_t clear_from) {
  size_t size = ((size_t)bytes + 63) & ~(size_t)63;
  unsigned char *p = arena_try_alloc(size + 64);
  if (!p) {
    diag_error(LOC_NONE, "the result: cannot allocate %lld bytes", (long long)bytes);
    return NULL;
  }
  p += (64 - (uintptr_t)p % 64) % 64;
  memset(p + clear_from, 0, (size ? size : 64) - (size_t)clear_from);
  return p;
}

/* Where the result's buffer needs clearing from: its lengths when it has any. */
static bool result_clear_from(Type *t, NatBinding *sizes, int64_t *out) {
  *out = 0;
  return !type_has_exists(t) || layout_lens_offset(t, sizes, "the result", out);
}

/* Inputs that are flat values already in the layout (a .npy input, a result of
   another run) are passed as they are: the kernels only read their inputs. */
static void buffers_free(void **buffers, bool *borrowed, int n) {
  for (int i = 1; i < n; i++) if (!borrowed[i]) free(buffers[i]);
}

static const char *input_name(Program *p, int i) {
  return arena_printf("input %d (%s)", i + 1, p->params[i].name);
}

/* sizes[k] = value of p->sizes[k], as the convention says. */
static long long *size_values(Program *p, NatBinding *sizes) {
  long long *values = NEW_ARRAY(long long, p->nsizes);
  for (int k = 0; k < p->nsizes; k++)
    if (!layout_lookup(sizes, p->sizes[k], &values[k])) {
      diag_error(LOC_NONE, "size variable %s is not bound", p->sizes[k]->name);
      return NULL;
    }
  return values;
}

/* Every type is checked before anything is allocated or compiled. */
static bool types_supported(Program *p) {
  for (int i = 0; i < p->nparams; i++)
    if (!layout_type_supported(p->params[i].type, input_name(p, i))) return false;
  return layout_type_supported(p->result, "the result");
}

static bool inputs_pack(Program *p, Value **inputs, NatBinding *sizes, void **buffers, bool *borrowed) {
  for (int i = 0; i < p->nparams; i++) {
    const char *what = input_name(p, i);
    Type *t = p->params[i].type;
    int64_t bytes;
    if (!inputs[i]) return diag_error(LOC_NONE, "%s: missing", what);
    if (!layout_type_bytes(t, sizes, what, &bytes)) return false;
    if (layout_flat_matches(t, inputs[i], sizes) && (uintptr_t)inputs[i]->raw % 16 == 0) {
      buffers[1 + i] = inputs[i]->raw;
      borrowed[1 + i] = true;
      continue;
    }
    if (!(buffers[1 + i] = buffer_new(bytes, what))) return false;
    if (!layout_pack(t, inputs[i], sizes, what, buffers[1 + i])) return false;
  }
  return true;
}

Value *cpu_run(const char *c_source, Program *p, Value **inputs, NatBinding *sizes, bool openmp) {
  return cpu_run_timed(c_source, p, NULL, inputs, sizes, openmp, NULL);
}

Value *cpu_run_timed(const char *c_source, Program *p, const Kernel *k, Value **inputs, NatBinding *sizes, bool openmp,
                     RunTiming *timing) {
  long long *size_args = size_values(p, sizes);
  if (!size_args || !types_supported(p)) return NULL;
  int n = p->nparams + 1;
  void **buffers = NEW_ARRAY(void *, n);
  bool *borrowed = NEW_ARRAY(bool, n);
  int64_t out_bytes, clear_from;
  const char *so;
  CpuEntry entry;
  bool ok = inputs_pack(p, inputs, sizes, buffers, borrowed)
         && layout_type_bytes(p->result, sizes, "the result", &out_bytes)
         && result_clear_from(p->result, sizes, &clear_from)
         && (buffers[0] = result_buffer_new(out_bytes, clear_from))
         && cpu_compile_shared(c_source, openmp, p->loc, &so)
         && cpu_load(so, &entry);
  Value *result = NULL;
  if (ok) {
    int32_t *cell = error_cell(so);
    if (cell) memset(cell, 0, sizeof(int32_t) * CHECK_CELL_INTS);
    entry(buffers, size_args);
    for (int r = 0; timing && r < timing->runs && (!cell || !cell[0]); r++) {
      double t0 = timing_now_ms();
      entry(buffers, size_args);
      timing->ms[r] = timing_now_ms() - t0;
    }
    if (cell && !check_report(k, cell))
      ;
    else if (timing && timing->discard_result)
      result = value_bool(true);
    else
      result = layout_unpack_in_place(p->result, sizes, "the result", buffers[0]);
  }
  buffers_free(buffers, borrowed, n);
  return result;
}
