/* lib_cuda.c — `clift compile -t cuda -o DIR` (SPEC §6), as lib_opencl.c is
   for opencl:
     DIR/NAME.cu       the kernels, exactly what `clift compile --print -t cuda` prints;
     DIR/NAME_host.cu  the host plan on the CUDA runtime API (what runtime/plan_run.c and cuda_device.c does
                       at run time, written out), NAME.cu #included into the same
                       translation unit, so `nvcc -O3 -arch=sm_90 -c NAME_host.cu`
                       builds kernels and host at once (no NVRTC at run time):
                       the current device (device 0 unless the caller chose
                       another); one buffer per program buffer; each plan kernel
                       launched with the default sizes (launch_policy.h) from its
                       loop counts, computed from the sizes at run time; the error
                       cell; the result copied back;
     DIR/NAME.h        int NAME_run(void **buffers, const long long *sizes), with
                       the buffer convention of docs/runtime.md.
   The kernels k0, k1, … are renamed NAME_k0, … by macros in the host file (the
   .cu stays as printed), so that several generated libraries link together.
   Nothing needs clift at run time: nvcc -c NAME_host.cu, link with nvcc (or
   cc and -lcudart -lstdc++). */
#include "../layout/layout.h"
#include "library.h"
#include "codegen.h"
#include <string.h>


/* One plan kernel: a pointer to each argument in codegen_cuda's order
   (buffers, sizes, scalar inputs straight from the caller's buffers, the
   error cell), as cuda_device.c passes them to cuLaunchKernel, then its launch
   from its loops' counts. */
static void print_launch(Buf *b, Plan *pl, PlanKernel *pk) {
  Kernel *k = pl->k;
  Program *p = k->prog;
  buf_printf(b, "  /* %s: %s */\n  {\n    void *args[] = {\n", pk->name, pk->single ? "one thread" : "parallel");
  for (int i = 0; i < pk->nbufs; i++)
    buf_printf(b, "      &mem[%d],   /* %s */\n", library_buffer_index(k, pk->bufs[i]), pk->bufs[i]->name);
  for (int i = 0; i < p->nsizes; i++)   /* the sizes it takes (PlanKernel.sizes_used) */
    if (plan_kernel_takes_size(pk, i)) buf_printf(b, "      (void *)&size_values[%d],\n", i);
  for (int i = 0; i < pk->nvars; i++)
    if (plan_kernel_takes_size(pk, p->nsizes + i)) buf_printf(b, "      (void *)&%s,   /* host loop */\n", pk->vars[i]->name);
  for (int i = 0; i < k->nscalars; i++)
    buf_printf(b, "      buffers[%d],   /* %s */\n", k->scalar_params[i], k->scalar_names[i]);
  buf_puts(b, "      &error_cell\n    };\n");
  /* local memory sized at launch: the dynamic shared memory, as cuda_device.c sums it */
  buf_puts(b, "    const size_t shared = 0");
  for (int i = 0; i < pk->nlocals; i++)
    if (pk->local_dynamic[i]) {
      buf_puts(b, " + (size_t)(");
      nat_print_c(b, codegen_dynamic_local_bytes(pk, i));
      buf_printf(b, ")");
    }
  buf_puts(b, ";\n");
  int n = library_loop_arrays(b, p, pk);
  buf_printf(b, "    if (launch((const void *)%s, \"%s\", args, shared, %d, level, dim, count)) goto done;\n  }\n\n",
             pk->name, pk->name, n);
}

/* Helpers of every host file: size arithmetic (min/max come from the kernels'
   prelude), errors, buffers (at least 64 bytes, zero-filled, like the
   runtime's), launches (y/z clamped to the device's limits, as cuda_device.c). */
static const char *host_helpers =
  "#ifndef min\n#define min(a, b) ((a) < (b) ? (a) : (b))\n#endif\n"
  "#ifndef max\n#define max(a, b) ((a) > (b) ? (a) : (b))\n#endif\n"
  "\n"
  "static int check(cudaError_t err, const char *what) {\n"
  "  if (err == cudaSuccess) return 0;\n"
  "  fprintf(stderr, \"%s: %s failed: %s (%s)\\n\", PROGRAM, what, cudaGetErrorName(err), cudaGetErrorString(err));\n"
  "  return 1;\n"
  "}\n"
  "\n"
  "static int buffer_new(void **mem, size_t bytes, const void *host, const char *what) {\n"
  "  size_t size = bytes > 64 ? bytes : 64;\n"
  "  char step[160];\n"
  "  snprintf(step, sizeof step, \"allocating %s\", what);\n"
  "  if (check(cudaMalloc(mem, size), step)) { *mem = NULL; return 1; }\n"
  "  snprintf(step, sizeof step, \"clearing %s\", what);\n"
  "  if (check(cudaMemset(*mem, 0, size), step)) return 1;\n"
  "  snprintf(step, sizeof step, \"copying %s\", what);\n"
  "  return host && bytes && check(cudaMemcpy(*mem, host, bytes, cudaMemcpyHostToDevice), step);\n"
  "}\n"
  "\n"
  "static int launch(const void *kern, const char *name, void **args, size_t shared, int n,\n"
  "                  const int *level, const int *dim, const long long *count) {\n"
  "  int device = 0, max_grid_y = 65535, max_block_z = 64;\n"
  "  struct cudaFuncAttributes attr;\n"
  "  size_t local[3], groups[3];\n"
  "  if (check(cudaGetDevice(&device), \"cudaGetDevice\")\n"
  "      || check(cudaDeviceGetAttribute(&max_grid_y, cudaDevAttrMaxGridDimY, device), \"cudaDeviceGetAttribute\")\n"
  "      || check(cudaDeviceGetAttribute(&max_block_z, cudaDevAttrMaxBlockDimZ, device), \"cudaDeviceGetAttribute\")\n"
  "      || check(cudaFuncGetAttributes(&attr, kern), \"cudaFuncGetAttributes\")) return 1;\n"
  "  int dims = clift_launch_size(n, level, dim, count, (size_t)attr.maxThreadsPerBlock, local, groups);\n"
  "  if (clift_launch_override(n, dim, dims, (size_t)attr.maxThreadsPerBlock, clift_tuned_local, clift_tuned_global,\n"
  "                            local, groups) < 0) {\n"
  "    fprintf(stderr, \"%s: the tuned work-group is larger than this device allows\\n\", PROGRAM);\n"
  "    return 1;\n"
  "  }\n"
  "  if (clift_launch_pinned(n, level, dim, count, (size_t)attr.maxThreadsPerBlock, local) < 0) {\n"
  "    fprintf(stderr, \"%s: kernel %s keeps an accumulator in registers and needs a work-group size this device \"\n"
  "            \"or the tuned sizes do not give\\n\", PROGRAM, name);\n"
  "    return 1;\n"
  "  }\n"
  "  for (int d = 1; d < 3; d++) if (groups[d] > (size_t)max_grid_y) groups[d] = (size_t)max_grid_y;\n"
  "  if (local[2] > (size_t)max_block_z) local[2] = (size_t)max_block_z;\n"
  "  dim3 grid((unsigned)groups[0], (unsigned)groups[1], (unsigned)groups[2]);\n"
  "  dim3 block((unsigned)local[0], (unsigned)local[1], (unsigned)local[2]);\n"
  "  char step[64];\n"
  "  snprintf(step, sizeof step, \"launching %s\", name);\n"
  "  if (shared > 48 * 1024 && check(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared),\n"
  "                                  \"cudaFuncSetAttribute\")) return 1;\n"
  "  return check(cudaLaunchKernel(kern, grid, block, args, shared, 0), step);\n"
  "}\n\n";

/* An iterate count the last kernel wrote into its cell: read back, never below 0. */
static void print_count(Buf *b, Plan *pl, PlanStep *s) {
  library_print_count(b, pl, s, "int", "cudaMemcpy(&value, mem[%d], sizeof value, cudaMemcpyDeviceToHost)");
}

static void print_buffer(Buf *b, int i, const char *bytes, const char *host, Buffer *buf) {
  buf_printf(b, "  if (buffer_new(&mem[%d], %s, %s, \"%s\")) goto done;\n", i, bytes, host, i == 0 ? "the result" : buf->name);
}

static const char *entry_name(const char *name) { return arena_printf("%s_run", library_symbol_base(name)); }

static void host_entry(Buf *out, Plan *pl, const char *name);

static const char *host_source(Plan *pl, const char *name, const LibraryTuning *tuned) {
  Kernel *k = pl->k;
  Program *p = k->prog;
  Buf b = {0};
  buf_printf(&b, "/* %s_host.cu — generated by clift (cuda target) from %s: the host plan of\n"
             " * %s.cu (included below) on the CUDA runtime API.\n"
             " * Build: nvcc -O3 -arch=sm_90 -c %s_host.cu (%s.cu in the same directory);\n"
             " * link with nvcc, or with cc and -lcudart -lstdc++. The convention of %s is in %s.h. */\n",
             name, p->file ? p->file : "a program", name, name, name, entry_name(name), name);
  buf_printf(&b, "#include <cuda_runtime.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
             "#include \"%s.h\"\n\n#define PROGRAM \"%s\"\n\n"
             "/* the kernels, under names of their own (several libraries link together) */\n", name, name);
  for (int i = 0; i < pl->n; i++) buf_printf(&b, "#define %s %s_%s\n", pl->kernels[i].name, library_symbol_base(name), pl->kernels[i].name);
  buf_printf(&b, "#include \"%s.cu\"\n\n", name);
  buf_puts(&b, library_launch_source(tuned));
  buf_puts(&b, "\n");
  buf_puts(&b, host_helpers);
  Buf body = {0};   /* clift_pow only where a size expression uses it (nvcc warns of unused functions) */
  host_entry(&body, pl, name);
  if (strstr(buf_str(&body), "clift_pow("))
    buf_puts(&b, "static inline long long clift_pow(long long b, long long e) { long long r = 1; while (e-- > 0) r *= b; return r; }\n\n");
  buf_puts(&b, buf_str(&body));
  return buf_str(&b);
}

/* NAME_run: the buffers, the launches, the error cell, the result. */
static void host_entry(Buf *out, Plan *pl, const char *name) {
  Kernel *k = pl->k;
  Program *p = k->prog;
  Buf b = {0};
  buf_printf(&b, "int %s(void **buffers, const long long *sizes) {\n", entry_name(name));
  for (int i = 0; i < p->nsizes; i++) buf_printf(&b, "  const long long %s = sizes[%d];\n", p->sizes[i]->name, i);
  if (p->nsizes) {   /* the kernels' size arguments */
    buf_printf(&b, "  long long size_values[] = {");
    for (int i = 0; i < p->nsizes; i++) buf_printf(&b, "%s%s", i ? ", " : " ", p->sizes[i]->name);
    buf_puts(&b, " };\n");
  } else buf_puts(&b, "  (void)sizes;\n");
  library_size_conditions(&b, p);
  buf_printf(&b, "  const size_t result_bytes = %s;\n"
             "  int rc = 1, failed = 0;\n"
             "  void *error_cell = NULL;\n"
             "  void *mem[%d] = { NULL };\n\n"
             "  /* buffers: the result (zero-filled), the inputs, the temporaries; the error cell */\n",
             library_bytes_expr(p->result), k->nbufs ? k->nbufs : 1);
  library_declare_counts(&b, pl->steps, pl->nsteps, "long long");
  library_buffers(&b, k, print_buffer);
  buf_puts(&b, "  if (buffer_new(&error_cell, sizeof(int) * 5, NULL, \"the error cell\")) goto done;\n\n");
  library_print_steps(&b, pl, pl->steps, pl->nsteps, 0, "long long", print_launch, print_count);
  buf_printf(&b, "  if (check(cudaDeviceSynchronize(), \"running the kernels\")) goto done;\n"
             "  if (check(cudaMemcpy(&failed, error_cell, sizeof failed, cudaMemcpyDeviceToHost), \"reading the error cell\")) goto done;\n"
             "  if (failed) {\n"
             "    fprintf(stderr, \"%%s: aref: index out of range\\n\", PROGRAM);\n"
             "    rc = 2;\n"
             "    goto done;\n"
             "  }\n"
             "  if (result_bytes > 0 && check(cudaMemcpy(buffers[0], mem[0], result_bytes, cudaMemcpyDeviceToHost),\n"
             "                                \"reading the result\")) goto done;\n"
             "  rc = 0;\n"
             "done:\n"
             "  for (int i = 0; i < %d; i++) if (mem[i]) cudaFree(mem[i]);\n"
             "  if (error_cell) cudaFree(error_cell);\n"
             "  return rc;\n"
             "}\n", k->nbufs ? k->nbufs : 1);
  buf_puts(out, buf_str(&b));
}

/* The header's opening comment (library_write_device adds the convention and
   the declaration). */
static const char *header_intro(Program *p, const char *name) {
  const char *entry = entry_name(name);
  Buf h = {0};
  buf_printf(&h, "/* %s.h — generated by clift (cuda target) from %s; build %s_host.cu\n"
             " * (which includes %s.cu) with nvcc: nvcc -O3 -arch=sm_90 -c %s_host.cu; link\n"
             " * with nvcc, or with cc and -lcudart -lstdc++.\n *\n"
             " * %s(buffers, sizes) computes the program once on the current CUDA\n"
             " * device (device 0 unless cudaSetDevice chose another); buffers are host\n"
             " * memory. It returns 0, 1 on a CUDA error or sizes that the program's splits\n"
             " * do not divide (reported on stderr), 2 when an aref index was out of range.\n *\n",
             name, p->file ? p->file : "a program", name, name, name, entry);
  return buf_str(&h);
}

bool library_write_cuda(Plan *pl, const char *cu, const char *dir, const char *name, const LibraryTuning *tuned) {
  if (!library_device_supported(pl)) return false;
  return library_write_device(dir, name, "cu", cu, "cu", host_source(pl, name, tuned), pl->k->prog,
                              arena_printf("%s%s", header_intro(pl->k->prog, name), library_tuning_note(tuned)), entry_name(name));
}
