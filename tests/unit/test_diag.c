/* test_diag.c — how errors read (SPEC §7, §8): file:line:col, the source line
   and a caret, a long line cut to a window around the caret, and generated code
   rejected by a downstream compiler (OpenCL build, NVRTC) reported as an
   internal error of clift at the program. */
#include "check.h"
#include "cli/driver.h"
#include "dpia/plan.h"
#include "runtime/opencl.h"
#include "runtime/device.h"
#include "runtime/cuda.h"
#include <string.h>

static bool has(const char *s, const char *part) { return s && strstr(s, part); }

/* the n-th line (from 1) of text, in the arena */
static const char *line_of(const char *text, int n) {
  for (int i = 1; i < n && text; i++) { text = strchr(text, '\n'); if (text) text++; }
  if (!text) return "";
  const char *e = strchr(text, '\n');
  return arena_printf("%.*s", e ? (int)(e - text) : (int)strlen(text), text);
}

/* columns of a rendered line: UTF-8 characters, not bytes */
static int columns(const char *s) {
  int n = 0;
  for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

static void test_short_line(void) {
  diag_add_source("short.lift", "(lift () (int)\n  (lambda (x) (+ x 1.5f)))\n");
  diag_clear();
  diag_error((Loc){ "short.lift", 2, 15 }, "'+' cannot combine int and float");
  const char *r = diag_render();
  CHECK(!strcmp(line_of(r, 1), "short.lift:2:15: error: '+' cannot combine int and float")
        && !strcmp(line_of(r, 2), "    (lambda (x) (+ x 1.5f)))")
        && !strcmp(line_of(r, 3), "                ^"), "short line:\n%s", r);
}

/* a 1000-character line: a window of about 100 around the caret, "…" at each
   cut, the caret under the culprit; at the start and the end of the line too */
static void test_long_line(void) {
  Buf b = {0};
  for (int i = 0; i < 1000; i++) buf_putc(&b, (char)('a' + i % 26));
  char *text = arena_strdup(buf_str(&b));
  memcpy(text + 600, "CULPRIT", 7);
  memcpy(text, "START", 5);
  memcpy(text + 993, "THE_END", 7);
  diag_add_source("long.lift", text);
  int cols[] = { 601, 1, 994, 1001 };
  const char *at[] = { "CULPRIT", "START", "THE_END", "" };
  for (int k = 0; k < 4; k++) {
    diag_clear();
    diag_error((Loc){ "long.lift", 1, cols[k] }, "here");
    const char *r = diag_render(), *quote = line_of(r, 2), *caret = line_of(r, 3);
    int lead = (int)strlen(caret) - 1;   /* spaces before the caret */
    /* the quoted text at the caret's column: skip `lead` columns of the quote */
    const char *q = quote;
    for (int c = 0; c < lead && *q; q++) if (((unsigned char)*q & 0xC0) != 0x80) c++;
    while (((unsigned char)*q & 0xC0) == 0x80) q++;
    CHECK(columns(quote) <= 2 + 102 && caret[lead] == '^' && !strncmp(q, at[k], strlen(at[k])),
          "long line, caret at %d:\n%s", cols[k], r);
    CHECK((cols[k] > 60) == !strncmp(quote, "  …", 5) && (cols[k] < 940) == has(quote + 5, "…"),
          "long line, caret at %d: the cuts are not marked:\n%s", cols[k], r);
  }
}

static void test_internal(void) {
  diag_clear();
  diag_internal((Loc){ "prog.lift", 3, 1 }, "the C compiler (cc) rejected the generated code x.c (exit status 1):\nx.c:1: error: oops\n");
  const char *r = diag_render();
  CHECK(!strcmp(line_of(r, 1), "prog.lift:3:1: internal error: the C compiler (cc) rejected the generated code x.c (exit status 1):")
        && !strcmp(line_of(r, 2), "x.c:1: error: oops") && has(line_of(r, 3), "bug in clift"), "internal:\n%s", r);
  diag_clear();
  diag_internal((Loc){ "prog.lift", 0, 0 }, "rejected");
  CHECK(!strcmp(line_of(diag_render(), 1), "prog.lift: internal error: rejected"), "internal, file only:\n%s", diag_render());
}

static const char *PROGRAM_TEXT =
  "(lift (N) ((array-type float N))\n  (lambda (xs) (mapGlb (lambda (x) (* x 2.0f)) xs)))\n";

/* NVRTC (no GPU needed) rejecting the kernels: an internal error at the program */
static void test_nvrtc(void) {
  diag_clear();
  if (!cuda_compile_ptx("extern \"C\" __global__ void k(float *x) { x[0] = 1; }\n", "compute_90", LOC_NONE)) {
    printf("diag: NVRTC not available here (%s): its rejection is not tested\n", diag_message());
    return;
  }
  diag_clear();
  Loc prog = { "nvrtc.lift", 2, 3 };
  CHECK(!cuda_compile_ptx("this is not CUDA;\n", "compute_90", prog)
        && has(diag_render(), "nvrtc.lift:2:3: internal error: NVRTC rejected the generated CUDA kernels")
        && has(diag_render(), "bug in clift"), "NVRTC rejection:\n%s", diag_render());
}

/* the OpenCL compiler rejecting the kernels: an internal error at the program */
static void test_opencl(void) {
  if (!opencl_available()) { printf("diag: no OpenCL platform here: its build failure is not tested\n"); return; }
  diag_clear();
  Program *p = driver_compile_text("ocl.lift", PROGRAM_TEXT);
  Compiled *c = p ? driver_generate(p, driver_target("opencl"), NULL) : NULL;
  Plan *plan = c ? c->plan : NULL;
  const char *args[] = { "[1, 2, 3]" };
  NatBinding *sizes = NULL;
  Value **in = plan ? driver_read_inputs(p, 1, args, NULL, &sizes) : NULL;
  CHECK(in, "setting up the OpenCL program: %s", diag_render());
  if (!in) return;
  RunOptions o = run_options_default();
  CHECK(!device_run(&opencl_device, plan, "__kernel void k0(this is not OpenCL C) {}\n", in, sizes, &o)
        && has(diag_render(), "ocl.lift:1:1: internal error: the OpenCL compiler of ")
        && has(diag_render(), "rejected the generated kernels") && has(diag_render(), "bug in clift"),
        "OpenCL build failure:\n%s", diag_render());
}

int main(void) {
  test_short_line();
  test_long_line();
  test_internal();
  test_nvrtc();
  test_opencl();
  return CHECK_DONE("diag");
}
