/* lib_opencl.c — `clift compile -t opencl -o DIR` (SPEC §6: "the kernels and a
   C file implementing the plan, with a header exposing one entry function"):
     DIR/NAME.cl      the kernels, exactly what `clift compile --print -t opencl` prints;
     DIR/NAME_host.c  the host plan on the OpenCL API (what runtime/plan_run.c does at
                      run time, written out): the first GPU of any platform, else
                      the first device; the kernels embedded as a string, built
                      with the build log on stderr on failure; one buffer per
                      program buffer; each plan kernel launched with the default
                      sizes (launch_policy.h) from its loop counts, computed from
                      the sizes at run time; the error cell; the result read back;
     DIR/NAME.h       int NAME_run(void **buffers, const long long *sizes), with
                      the buffer convention of docs/runtime.md.
   Nothing needs clift at run time: cc -std=c11 NAME_host.c … -lOpenCL. */
#include "../layout/layout.h"
#include "library.h"
#include "codegen.h"
#include <string.h>

/* The source as a C string literal, one literal per line ("??" escaped: trigraphs). */
static void print_string_literal(Buf *b, const char *text) {
  buf_puts(b, "  \"");
  for (const char *s = text; *s; s++) {
    if (*s == '\n') { buf_puts(b, s[1] ? "\\n\"\n  \"" : "\\n"); continue; }
    if (*s == '\\' || *s == '"' || (*s == '?' && s > text && s[-1] == '?')) buf_putc(b, '\\');
    buf_putc(b, *s);
  }
  buf_puts(b, "\"");
}


/* One plan kernel: its arguments in codegen_opencl's order (buffers, sizes,
   scalar inputs, the error cell, local memory sized at launch), then its
   launch from its loops' counts. */
static void print_launch(Buf *b, Plan *pl, PlanKernel *pk) {
  Kernel *k = pl->k;
  Program *p = k->prog;
  buf_printf(b, "  /* %s: %s */\n", pk->name, pk->single ? "one work-item" : "parallel");
  buf_printf(b, "  kern = clCreateKernel(prog, \"%s\", &err);\n", pk->name);
  buf_printf(b, "  if (check(err, \"clCreateKernel(%s)\")) goto done;\n  arg = 0;\n", pk->name);
  for (int i = 0; i < pk->nbufs; i++)
    buf_printf(b, "  SET_ARG(sizeof(cl_mem), &mem[%d]);   /* %s */\n", library_buffer_index(k, pk->bufs[i]), pk->bufs[i]->name);
  for (int i = 0; i < p->nsizes; i++)   /* the sizes it takes (PlanKernel.sizes_used) */
    if (plan_kernel_takes_size(pk, i)) buf_printf(b, "  SET_ARG(sizeof(cl_long), &size_values[%d]);\n", i);
  for (int i = 0; i < pk->nvars; i++)
    if (plan_kernel_takes_size(pk, p->nsizes + i)) buf_printf(b, "  SET_ARG(sizeof(cl_long), &%s);   /* host loop */\n", pk->vars[i]->name);
  for (int i = 0; i < k->nscalars; i++) {
    int64_t bytes = 0;
    layout_type_bytes(k->scalar_types[i], NULL, k->scalar_names[i], &bytes);
    Type *t = k->scalar_types[i];
    if (t->kind == TY_VECTOR && t->width == 3)   /* an OpenCL 3-lane vector argument has 4 lanes' size */
      buf_printf(b, "  { unsigned char v3[32] = { 0 }; memcpy(v3, buffers[%d], %lld); SET_ARG(%lld, v3); }   /* %s */\n",
                 k->scalar_params[i], (long long)bytes, (long long)bytes / 3 * 4, k->scalar_names[i]);
    else
      buf_printf(b, "  SET_ARG(%lld, buffers[%d]);   /* %s */\n", (long long)bytes, k->scalar_params[i], k->scalar_names[i]);
  }
  buf_puts(b, "  SET_ARG(sizeof(cl_mem), &error_cell);\n");
  for (int i = 0; i < pk->nlocals; i++) {   /* PlanKernel.local_dynamic: a size, no value (at least 16 bytes) */
    if (!pk->local_dynamic[i]) continue;
    buf_puts(b, "  { size_t bytes = (size_t)(");
    nat_print_c(b, pk->local_counts[i]);
    buf_printf(b, ") * %d; SET_ARG(bytes > 16 ? bytes : 16, NULL); }   /* %s: local memory */\n", pk->local_dynamic[i],
               pk->locals[i]->name);
  }
  buf_puts(b, "  {\n");
  int n = library_loop_arrays(b, p, pk);
  buf_printf(b, "    if (launch(queue, device, kern, %d, level, dim, count)) goto done;\n  }\n", n);
  buf_puts(b, "  clReleaseKernel(kern);\n  kern = NULL;\n\n");
}

static const char *host_prelude =
  "#define CL_TARGET_OPENCL_VERSION 120\n"
  "#define CL_USE_DEPRECATED_OPENCL_1_2_APIS\n"
  "#include <CL/cl.h>\n"
  "#include <stdio.h>\n"
  "#include <stdlib.h>\n"
  "#include <string.h>\n";

/* Helpers of every host file: size arithmetic (min/max/pow of the size
   expressions), errors, buffers (at least 64 bytes: OpenCL refuses empty ones,
   zero-filled like the runtime's), launches. */
static const char *host_helpers =
  "#define min(a, b) ((a) < (b) ? (a) : (b))\n"
  "#define max(a, b) ((a) > (b) ? (a) : (b))\n"
  "static inline long long clift_pow(long long b, long long e) { long long r = 1; while (e-- > 0) r *= b; return r; }\n"
  "\n"
  "static int check(cl_int err, const char *what) {\n"
  "  if (err == CL_SUCCESS) return 0;\n"
  "  fprintf(stderr, \"%s: %s failed: OpenCL error %d\\n\", PROGRAM, what, (int)err);\n"
  "  return 1;\n"
  "}\n"
  "\n"
  "static cl_mem buffer_new(cl_context ctx, size_t bytes, const void *host, cl_int *err) {\n"
  "  size_t size = bytes > 64 ? bytes : 64;\n"
  "  void *init = calloc(1, size);\n"
  "  if (!init) { *err = CL_OUT_OF_HOST_MEMORY; return NULL; }\n"
  "  if (host && bytes) memcpy(init, host, bytes);\n"
  "  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, init, err);\n"
  "  free(init);\n"
  "  return m;\n"
  "}\n"
  "\n"
  "static int launch(cl_command_queue queue, cl_device_id device, cl_kernel kern, int n,\n"
  "                  const int *level, const int *dim, const long long *count) {\n"
  "  size_t max_local = 1, local[3], groups[3], global[3];\n"
  "  if (check(clGetKernelWorkGroupInfo(kern, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_local, &max_local, NULL),\n"
  "            \"clGetKernelWorkGroupInfo\")) return 1;\n"
  "  int dims = clift_launch_size(n, level, dim, count, max_local, local, groups);\n"
  "  dims = clift_launch_override(n, dim, dims, max_local, clift_tuned_local, clift_tuned_global, local, groups);\n"
  "  if (dims < 0) {\n"
  "    fprintf(stderr, \"%s: the tuned work-group is larger than this device allows\\n\", PROGRAM);\n"
  "    return 1;\n"
  "  }\n"
  "  if (clift_launch_pinned(n, level, dim, count, max_local, local) < 0) {\n"
  "    fprintf(stderr, \"%s: a kernel keeps an accumulator in registers and needs a work-group size this device \"\n"
  "            \"or the tuned sizes do not give\\n\", PROGRAM);\n"
  "    return 1;\n"
  "  }\n"
  "  for (int d = 0; d < 3; d++) global[d] = local[d] * groups[d];\n"
  "  return check(clEnqueueNDRangeKernel(queue, kern, (cl_uint)dims, NULL, global, local, 0, NULL, NULL),\n"
  "               \"clEnqueueNDRangeKernel\");\n"
  "}\n"
  "\n"
  "/* The first GPU of any platform, else the first device (SPEC §6). */\n"
  "static int device_pick(cl_device_id *device) {\n"
  "  cl_platform_id platforms[8];\n"
  "  cl_uint np = 0, nd = 0;\n"
  "  if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS || np == 0) {\n"
  "    fprintf(stderr, \"%s: no OpenCL platform found\\n\", PROGRAM);\n"
  "    return 1;\n"
  "  }\n"
  "  if (np > 8) np = 8;\n"
  "  for (cl_uint p = 0; p < np && nd == 0; p++)\n"
  "    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, device, &nd) != CL_SUCCESS) nd = 0;\n"
  "  for (cl_uint p = 0; p < np && nd == 0; p++)\n"
  "    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, device, &nd) != CL_SUCCESS) nd = 0;\n"
  "  if (nd == 0) fprintf(stderr, \"%s: no OpenCL device found\\n\", PROGRAM);\n"
  "  return nd == 0;\n"
  "}\n"
  "\n"
  "static cl_program program_build(cl_context ctx, cl_device_id device) {\n"
  "  cl_int err;\n"
  "  const char *src = kernel_source;\n"
  "  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);\n"
  "  if (check(err, \"clCreateProgramWithSource\")) return NULL;\n"
  "  cl_device_type type = 0;   /* a CPU device: no vectorised sequential loops (clift's FINDINGS F52) */\n"
  "  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);\n"
  "  const char *options = (type & CL_DEVICE_TYPE_CPU) ? \"-w -DCLIFT_NO_LOOP_VECTORIZE\" : \"-w\";   /* -w: no warnings on stderr */\n"
  "  if (clBuildProgram(prog, 1, &device, options, NULL, NULL) == CL_SUCCESS) return prog;\n"
  "  size_t len = 0;\n"
  "  clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);\n"
  "  char *log = calloc(1, len + 1);\n"
  "  if (log) clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, len, log, NULL);\n"
  "  fprintf(stderr, \"%s: internal error: the OpenCL compiler rejected the kernels clift generated\"\n"
  "                  \" (a bug in clift; please report it with the program):\\n%s\\n\", PROGRAM, log ? log : \"\");\n"
  "  free(log);\n"
  "  clReleaseProgram(prog);\n"
  "  return NULL;\n"
  "}\n\n";

/* An iterate count the last kernel wrote into its cell: read back, never below 0. */
static void print_count(Buf *b, Plan *pl, PlanStep *s) {
  library_print_count(b, pl, s, "cl_int", "clEnqueueReadBuffer(queue, mem[%d], CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL)");
}

static void print_buffer(Buf *b, int i, const char *bytes, const char *host, Buffer *buf) {
  buf_printf(b, "  mem[%d] = buffer_new(ctx, %s, %s, &err);\n", i, bytes, host);
  buf_printf(b, "  if (check(err, \"allocating %s\")) goto done;\n", buf->name);
}

static const char *entry_name(const char *name) { return arena_printf("%s_run", library_symbol_base(name)); }

static const char *host_source(Plan *pl, const char *cl_source, const char *name, const LibraryTuning *tuned) {
  Kernel *k = pl->k;
  Program *p = k->prog;
  Buf b = {0};
  buf_printf(&b, "/* %s_host.c — generated by clift (opencl target) from %s: the host plan of\n"
             " * %s.cl (embedded below) on the OpenCL API. Build: cc -std=c11 -c %s_host.c;\n"
             " * link with -lOpenCL. The convention of %s is in %s.h. */\n",
             name, p->file ? p->file : "a program", name, name, entry_name(name), name);
  buf_puts(&b, host_prelude);
  buf_printf(&b, "#include \"%s.h\"\n\n#define PROGRAM \"%s\"\n\nstatic const char kernel_source[] =\n", name, name);
  print_string_literal(&b, cl_source);
  buf_puts(&b, ";\n\n");
  buf_puts(&b, library_launch_source(tuned));
  buf_puts(&b, "\n");
  buf_puts(&b, host_helpers);
  buf_printf(&b, "#define SET_ARG(size, value) \\\n"
             "  if (check(clSetKernelArg(kern, arg++, size, value), \"clSetKernelArg\")) goto done\n\n"
             "int %s(void **buffers, const long long *sizes) {\n", entry_name(name));
  for (int i = 0; i < p->nsizes; i++) buf_printf(&b, "  const long long %s = sizes[%d];\n", p->sizes[i]->name, i);
  buf_printf(&b, "  const cl_long size_values[] = {");
  for (int i = 0; i < p->nsizes; i++) buf_printf(&b, "%s%s", i ? ", " : " ", p->sizes[i]->name);
  buf_printf(&b, "%s};\n", p->nsizes ? " " : " 0 ");
  if (!p->nsizes) buf_puts(&b, "  (void)sizes;\n");
  library_size_conditions(&b, p);   /* the kernels' aligned vector accesses rely on them (c_expr.c) */
  buf_printf(&b, "  const size_t result_bytes = %s;\n"
             "  (void)size_values;\n"
             "  int rc = 1;\n  cl_int err = CL_SUCCESS, failed = 0;\n  cl_uint arg = 0;\n"
             "  cl_device_id device;\n  cl_context ctx = NULL;\n  cl_command_queue queue = NULL;\n"
             "  cl_program prog = NULL;\n  cl_kernel kern = NULL;\n  cl_mem error_cell = NULL;\n"
             "  cl_mem mem[%d] = { NULL };\n"
             "  if (device_pick(&device)) return 1;\n"
             "  ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);\n"
             "  if (check(err, \"clCreateContext\")) goto done;\n"
             "  queue = clCreateCommandQueue(ctx, device, 0, &err);\n"
             "  if (check(err, \"clCreateCommandQueue\")) goto done;\n"
             "  if (!(prog = program_build(ctx, device))) goto done;\n\n"
             "  /* buffers: the result (zero-filled), the inputs, the temporaries; the error cell */\n",
             library_bytes_expr(p->result), k->nbufs ? k->nbufs : 1);
  library_declare_counts(&b, pl->steps, pl->nsteps, "cl_long");
  library_buffers(&b, k, print_buffer);
  buf_puts(&b, "  error_cell = buffer_new(ctx, sizeof(cl_int) * 5, NULL, &err);\n"
               "  if (check(err, \"allocating the error cell\")) goto done;\n\n");
  library_print_steps(&b, pl, pl->steps, pl->nsteps, 0, "cl_long", print_launch, print_count);
  buf_printf(&b, "  if (check(clEnqueueReadBuffer(queue, error_cell, CL_TRUE, 0, sizeof failed, &failed, 0, NULL, NULL),\n"
             "            \"reading the error cell\")) goto done;\n"
             "  if (failed) {\n"
             "    fprintf(stderr, \"%%s: aref: index out of range\\n\", PROGRAM);\n"
             "    rc = 2;\n"
             "    goto done;\n"
             "  }\n"
             "  if (result_bytes > 0 && check(clEnqueueReadBuffer(queue, mem[0], CL_TRUE, 0, result_bytes, buffers[0],\n"
             "                                                0, NULL, NULL), \"reading the result\")) goto done;\n"
             "  rc = 0;\n"
             "done:\n"
             "  if (queue) clFinish(queue);\n"
             "  if (kern) clReleaseKernel(kern);\n"
             "  for (int i = 0; i < %d; i++) if (mem[i]) clReleaseMemObject(mem[i]);\n"
             "  if (error_cell) clReleaseMemObject(error_cell);\n"
             "  if (prog) clReleaseProgram(prog);\n"
             "  if (queue) clReleaseCommandQueue(queue);\n"
             "  if (ctx) clReleaseContext(ctx);\n"
             "  return rc;\n"
             "}\n", k->nbufs ? k->nbufs : 1);
  return buf_str(&b);
}

/* The header's opening comment (library_write_device adds the convention and
   the declaration). */
static const char *header_intro(Program *p, const char *name) {
  const char *entry = entry_name(name);
  Buf h = {0};
  buf_printf(&h, "/* %s.h — generated by clift (opencl target) from %s; compile %s_host.c\n"
             " * with any C11 compiler and link with -lOpenCL (cc -std=c11 -c %s_host.c).\n *\n"
             " * %s(buffers, sizes) computes the program once on the first OpenCL GPU\n"
             " * (else the first device): it returns 0, 1 on an OpenCL error (reported\n"
             " * on stderr, with the build log when the kernels fail to build), 2 when an\n"
             " * aref index was out of range.\n *\n",
             name, p->file ? p->file : "a program", name, name, entry);
  return buf_str(&h);
}

bool library_write_opencl(Plan *pl, const char *cl, const char *dir, const char *name, const LibraryTuning *tuned) {
  if (!library_device_supported(pl)) return false;
  return library_write_device(dir, name, "cl", cl, "c", host_source(pl, cl, name, tuned), pl->k->prog,
                              arena_printf("%s%s", header_intro(pl->k->prog, name), library_tuning_note(tuned)), entry_name(name));
}
