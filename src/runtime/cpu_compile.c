/* cpu_compile.c — generated C → shared object, through the system C compiler, with a
   cache keyed by a hash of (source, flags, compiler) so a program is compiled once
   per machine (docs/runtime.md §3). */
#include "cpu_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* -fwrapv: int arithmetic wraps, as in the interpreter. -mno-avx512f: GCC 12.2
   miscompiles loops whose conditional reads it if-converts into AVX-512
   masked code (tests/regress/avx512_pad_select.lift, difftest FINDINGS F16);
   the price is the 512-bit width on compute-bound loops (bench/cpu builds the
   generated files with its own flags, so its figures do not show it).
   -fno-math-errno: no program reads errno, and without it GCC must call exp,
   log, sqrt… at every use, never merging or inlining them: the APL
   Black-Scholes took 23.7 ms instead of 4.8 ms (docs/performance.md); values
   are the same (no -ffast-math: libm's functions, IEEE sqrt). */
#define CPU_FLAGS "-O3 -march=native -mno-avx512f -std=c11 -fwrapv -fno-math-errno -fPIC -shared"
#define CPU_LOG_MAX 3000   /* diag messages hold 4 KB; keep the head of the log */

static const char *compiler(void) {
  const char *cc = getenv("CC");
  return cc && *cc ? cc : "cc";
}

/* argv for `$CC FLAGS [-fopenmp] -o out src -lm`; $CC may carry words ("ccache gcc"). */
static char **compiler_argv(bool openmp, const char *out, const char *src) {
  char *words = arena_printf("%s %s%s -o", compiler(), CPU_FLAGS, openmp ? " -fopenmp" : "");
  char **argv = NEW_ARRAY(char *, strlen(words) + 8);
  int n = 0;
  for (char *w = strtok(words, " \t"); w; w = strtok(NULL, " \t")) argv[n++] = w;
  argv[n++] = (char *)out;
  argv[n++] = (char *)src;
  argv[n++] = "-lm";
  argv[n] = NULL;
  return argv;
}

/* The compiler's stdout+stderr, at most CPU_LOG_MAX bytes; the log file is removed. */
static const char *read_log(const char *log) {
  FILE *f = fopen(log, "rb");
  unlink(log);
  if (!f) return "(no compiler output)";
  char *text = arena_alloc(CPU_LOG_MAX + 1);
  text[fread(text, 1, CPU_LOG_MAX, f)] = 0;
  bool more = fgetc(f) != EOF;
  fclose(f);
  return more ? arena_printf("%s\n[… truncated]", text) : text;
}

/* A compiler that cannot be started is the machine's problem (an error); one
   that rejects the generated code is clift's (an internal error, SPEC §8). */
static bool run_compiler(char **argv, const char *src, const char *log, Loc where) {
  extern char **environ;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err) {
    unlink(log);
    return diag_error(LOC_NONE, "cannot run the C compiler '%s': %s", argv[0], strerror(err));
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return diag_error(LOC_NONE, "waiting for the C compiler: %s", strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) { unlink(log); return true; }
  const char *why = WIFEXITED(status) ? arena_printf("exit status %d", WEXITSTATUS(status))
                                      : arena_printf("signal %d", WTERMSIG(status));
  return diag_internal(where, "the C compiler (%s) rejected the generated code %s (%s):\n%s",
                       compiler(), src, why, read_log(log));
}

bool cpu_compile_shared(const char *c_source, bool openmp, Loc where, const char **so_path) {
  const char *dir = util_cache_dir();
  if (!dir) return false;
  const char *flags = openmp ? CPU_FLAGS " -fopenmp" : CPU_FLAGS;
  unsigned long long h = util_fnv1a(util_fnv1a(util_fnv1a(UTIL_FNV_BASIS, c_source), flags), compiler());
  const char *base = arena_printf("%s/%016llx", dir, h);
  const char *so = arena_printf("%s.so", base), *src = arena_printf("%s.c", base);
  *so_path = so;
  if (access(so, R_OK) == 0) return true;   /* rename made it whole, so it is usable */
  if (!util_write_text(src, c_source)) return false;
  /* per-process temporary names: concurrent clifts may build the same program */
  const char *tmp = arena_printf("%s.so.tmp.%ld", base, (long)getpid());
  const char *log = arena_printf("%s.log.%ld", base, (long)getpid());
  if (!run_compiler(compiler_argv(openmp, tmp, src), src, log, where)) { unlink(tmp); return false; }
  if (rename(tmp, so) != 0) {
    int err = errno;
    unlink(tmp);
    return diag_error(LOC_NONE, "cannot create '%s': %s", so, strerror(err));
  }
  return true;
}
