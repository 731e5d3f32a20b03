/* usage.c — the text of `clift --help` and of each command's --help (SPEC §7),
   kept apart from main.c's option parsing; the main usage's target list is
   printed from the table of targets (main.c, print_usage_main). */
#include "usage.h"

const char *const usage_main =
  "usage: clift COMMAND [OPTIONS] [prog.lift [inputs…]]\n"
  "\n"
  "clift compiles and runs programs of a typed functional data-parallel array\n"
  "language (Lift): map, reduce, zip, split, … with optional strategies.\n"
  "\n"
  "commands:\n"
  "  check   prog.lift                     type-check, print the program's type\n"
  "  run     [-t TARGET] [-o out.npy] prog.lift [inputs…]\n"
  "                                        run, print the result as a literal\n"
  "  test    [-t TARGETS] [-v] [files…]    run the test blocks in program files\n"
  "  compile [-t TARGET] -o DIR prog.lift  emit kernels + host C + header\n"
  "  bench   [-t TARGET] --size N=V… prog.lift\n"
  "                                        time on random inputs\n"
  "  tune    -t opencl|cuda --size N=V… prog.lift\n"
  "                                        search launch and tunable sizes and\n"
  "                                        schedule flags, cache the best\n"
  "                                        (docs/tuning.md)\n"
  "  apl     --emit-tail|--emit-core prog.apl\n"
  "                                        print the TAIL (or clift) an APL program\n"
  "                                        compiles to\n"
  "  switches                              list the experiment switches (CLIFT_…\n"
  "                                        variables), their values and meanings\n"
  "\n"
  "check, run and test also take APL programs (prog.apl) and TAIL programs\n"
  "(prog.tail), which have no inputs (docs/apl.md); check, run, test, bench and\n"
  "compile --print|--ptx (with the inputs after the file) take FCL programs\n"
  "(prog.fcl; docs/fcl.md), compiled for the shapes of their inputs.\n"
  "\n"
  "targets:\n"
  "%s"
  "  auto    the first of cuda, opencl, openmp that runs here\n"
  "\n"
  "`clift COMMAND --help` describes one command. Exit status: 0 success, 1 an\n"
  "error in the program, its inputs or a run, 2 a usage error.\n";

const char *const usage_check =
  "usage: clift check [--dump] [--emit-tail] prog.lift|prog.tail|prog.apl\n"
  "Parse and type-check the program and print its type, e.g.\n"
  "  (N) [float]N -> [float]N\n"
  "for a TAIL or APL program (docs/apl.md) each output's TAIL type and extents,\n"
  "one line each, e.g.\n"
  "  [double]1 14\n"
  "  [int]1 ≤99          (a compress result: at most 99 elements)\n"
  "--dump       also print the normalised program (for TAIL and APL: the clift\n"
  "             program it is lowered to) as an S-expression\n"
  "--emit-tail  TAIL and APL: print the TAIL program (as parsed, or as the APL\n"
  "             elaborates to), in TAIL's syntax, then check it\n";

const char *const usage_apl =
  "usage: clift apl --emit-tail|--emit-core prog.apl\n"
  "Compile an APL program (docs/apl.md) and print, instead of running it:\n"
  "--emit-tail  the TAIL program it elaborates to, in TAIL's syntax (the thesis's\n"
  "             Figure 3.1); `clift run` accepts it as a .tail file\n"
  "--emit-core  the clift program the TAIL lowers to, as an S-expression (a dump:\n"
  "             not yet a runnable .lift file, docs/apl.md §6)\n";

const char *const usage_switches =
  "usage: clift switches\n"
  "List the compiler's experiment switches: environment variables (CLIFT_LB_…,\n"
  "CLIFT_FCL_…, CLIFT_REDUCE_GUARD) that change the generated code, to compare\n"
  "variants without rebuilding clift (docs/switches.md). One line each: the\n"
  "variable, its value in this environment, its default, the values it accepts\n"
  "(LO..HI, or names separated by |) and its meaning, with the source that reads\n"
  "it. A value it does not accept is ignored, with a warning on stderr, and the\n"
  "default used (here and in every command).\n";

/* The help of the code-generation flags (the table of gen_flags.c), shared by
   run and compile. */
#define GEN_FLAGS_HELP \
  "--peel, --peel=all, --no-peel\n" \
  "            stencils over padded windows, map f (slide (pad …)), in three\n" \
  "            sections (the borders with their bounds checks, the interior without;\n" \
  "            seed 002): the default for strategy-free maps; --peel peels mapGlb\n" \
  "            and mapSeq too, --no-peel none; on opencl and cuda only windows of 5\n" \
  "            and more (a cost rule, noted in the code), --peel=all any window\n" \
  "            (docs/language.md, Stencils)\n" \
  "--peel-aligned\n" \
  "            opencl/cuda, for measuring: a peeled interior's work-items at the\n" \
  "            positions the unpeeled loop gives them (item x computes window x)\n" \
  "--no-single-pass\n" \
  "            opencl/cuda: the top-level filter and scan in three steps (count,\n" \
  "            scan of the counts, scatter) instead of one pass with look-back\n" \
  "            between work-groups, which needs every started work-group to run\n" \
  "            to completion (NVIDIA GPUs and PoCL do)\n" \
  "--no-privatise\n" \
  "            opencl/cuda: keep a work-group's accumulator partitioned by mapLcl\n" \
  "            in local memory instead of each work-item's registers (which pins\n" \
  "            the work-group's size; --local-size turns it off too; docs/tuning.md)\n" \
  "--pipeline  opencl/cuda: prefetch the next step's global reads into registers\n" \
  "            in a work-group's copy → barrier → compute loop (docs/design.md §14;\n" \
  "            off by default: alone it made sgemm_tiled_v4 slower, see\n" \
  "            docs/performance.md)\n" \
  "--double-buffer\n" \
  "            opencl/cuda: --pipeline, and that loop's local tiles in two halves,\n" \
  "            one barrier per step instead of two (docs/design.md §14)\n" \
  "--unroll    opencl/cuda: #pragma unroll on sequential loops of 2 to 32 steps\n"

const char *const usage_run =
  "usage: clift run [-t TARGET] [-o out.npy] prog.lift [inputs…]\n"
  "       clift run --batch FILE\n"
  "Run the program on one input per parameter and print the result.\n"
  "--batch FILE: one run a line of FILE, its arguments (as above) separated by\n"
  "tabs, all in this process (a device is set up once); run k's output and errors\n"
  "go to FILE.k.out and FILE.k.err, and \"k STATUS\" to stdout when it ends.\n"
  "Inputs: a literal ([1.0, 2.5], [[1,2],[3,4]], 3, (1, 2.5)), @file holding a\n"
  "literal, or file.npy (NumPy, C order). Everything after prog.lift is an\n"
  "input, so negative numbers are fine.\n"
  "An APL or TAIL program (prog.apl, prog.tail; docs/apl.md) takes no inputs; it\n"
  "prints each ⎕← value, then its final value, one per line, as docs/apl.md §4\n"
  "says (booleans 0/1, char vectors as text).\n"
  "-t TARGET   openmp (default), c, opencl, cuda, interp (the reference interpreter),\n"
  "            or auto (the first of cuda, opencl, openmp that runs here)\n"
  "-o FILE     write the result as .npy instead of printing it\n"
  "--device K  opencl: the K-th OpenCL device, counting over all platforms\n"
  "            (default: the first GPU, else the first device)\n"
  "--local-size X[,Y[,Z]], --global-size X[,Y[,Z]]\n"
  "            opencl/cuda: work-group and global sizes instead of the defaults\n"
  "            (any sizes are correct: every parallel loop is grid-stride);\n"
  "            a usage error on c, openmp and interp, which have no launch sizes\n"
  GEN_FLAGS_HELP
  "--tunable NAME=V\n"
  "            the value of a tunable size, (NAME k1 k2 …) in the size list\n"
  "            (docs/tuning.md); default: its first candidate\n"
  "--no-tune-cache\n"
  "            opencl/cuda: ignore the configuration clift tune stored for this\n"
  "            program, these sizes and this device (used otherwise, unless\n"
  "            --tunable, --local-size, --global-size or one of --pipeline,\n"
  "            --double-buffer, --unroll is given; it says so)\n";

const char *const usage_test =
  "usage: clift test [-t TARGETS] [-v] [--strict] [files or directories…]\n"
  "Run the ';; test:' blocks in program files (default: tests/lift and examples;\n"
  "'(* test: … *)' in .tail files, '⍝ test:' in .apl files, whose blocks keep\n"
  "every 'output:' line, one per printed line)\n"
  "on each target\n"
  "(comma-separated; default: every target available here) and print\n"
  "'N passed, N failed, N skipped'. -v lists passing tests too.\n"
  "A target's refusal (\"not supported on TARGET\") is a skip; with --strict it\n"
  "fails the block unless the file says ';; refused: TARGET…' (targets\n"
  "separated by spaces), so that a refusal that was not meant is seen.\n"
  "--list-targets prints the default targets (those available here) and exits.\n"
  "--peel, --peel=all, --no-peel  how the compiled targets translate stencils\n"
  "                   (clift run --help)\n"
  "--no-single-pass   filter and scan in three steps (clift run --help)\n"
  "--no-privatise     accumulators of a work-group in local memory (clift run --help)\n"
  "--pipeline, --double-buffer, --unroll   device loops (clift run --help)\n";

const char *const usage_compile =
  "usage: clift compile [-t TARGET] [--tunable NAME=V] [--size N=V] -o DIR prog.lift\n"
  "Write DIR/NAME.c (the generated code) and DIR/NAME.h (one entry function,\n"
  "void NAME_run(buffers, sizes), with its buffer convention documented), NAME\n"
  "from prog.lift made a C identifier (my-prog.lift: my_prog). Every exported\n"
  "symbol starts with NAME_ (clift_NAME_ when NAME starts with a digit), so\n"
  "several compiled programs link into one executable.\n"
  "opencl: DIR/NAME.cl (the kernels), DIR/NAME_host.c (the host, link with\n"
  "-lOpenCL) and DIR/NAME.h (int NAME_run(buffers, sizes)).\n"
  "cuda: DIR/NAME.cu (the kernels), DIR/NAME_host.cu (the host on the CUDA runtime\n"
  "API, includes NAME.cu: nvcc -c NAME_host.cu) and DIR/NAME.h (NAME_run).\n"
  "Nothing in them needs clift at run time.\n"
  "An FCL program (prog.fcl INPUTS…) is compiled for the shapes of its inputs:\n"
  "--print and --ptx take it; -o is refused (not supported: its lengths are\n"
  "values it computes, constants of one input shape; docs/fcl.md §6.7).\n"
  "-t TARGET   openmp (default), c, opencl, cuda, or auto (the first of cuda,\n"
  "            opencl, openmp that runs here)\n"
  "-o DIR      output directory (created if missing)\n"
  "--print     print the generated C (opencl: the OpenCL C kernels) on stdout\n"
  "            instead of writing files\n"
  "cuda: --print prints the CUDA C++ kernels; --ptx compiles them with NVRTC for\n"
  "            sm_90 (compute_90) and prints the PTX (needs libnvrtc, no GPU)\n"
  GEN_FLAGS_HELP
  "--tunable NAME=V\n"
  "            the value of a tunable size (docs/tuning.md)\n"
  "--size N=V  opencl/cuda: use the configuration clift tune stored for these\n"
  "            sizes on this device, if any (the header records it; the host\n"
  "            applies its launch sizes); --no-tune-cache: never\n";

const char *const usage_tune =
  "usage: clift tune -t opencl|cuda --size N=V… [options] prog.lift\n"
  "Search the launch sizes, the program's tunable sizes ((TS 16 32 64) in the\n"
  "lift header's size list; docs/tuning.md) and the code-generation flags that\n"
  "are choices of schedule (--pipeline, --double-buffer, --unroll: each on and\n"
  "off, where it changes the generated code) on the device: every candidate is\n"
  "checked against the interpreter at small sizes, then timed at the --size\n"
  "values; progress on stderr, the ranking on stdout. The best configuration goes\n"
  "to the tuning cache, which clift run, bench and compile then use on this\n"
  "device for these sizes (\"using tuned configuration from …\").\n"
  "-t TARGET         opencl or cuda (launch sizes exist only there)\n"
  "--size N=V        the sizes to tune for (all are required)\n"
  "--check-size N=V  the sizes of the check (default: each --size halved while\n"
  "                  above 256 and even)\n"
  "--runs K          timed runs per candidate, the median counts (default 5)\n"
  "--max-tries K     try at most K candidates: the default configuration and a\n"
  "                  seeded sample of the rest (default 200; 0: all)\n"
  "--time-limit S    stop after S seconds with the best so far\n"
  "--tolerance X     relative tolerance of the check (default 1e-4)\n"
  "--seed S          inputs and sample (default 1)\n"
  "--no-store        search and report only; the cache is left as it is\n"
  "--tune-flags L    the schedule flags searched: a comma-separated list of\n"
  "                  pipeline, double-buffer, unroll (default: all), or none;\n"
  "                  one given as an option below is on in every candidate\n"
  "--device K        opencl: the K-th OpenCL device over all platforms\n"
  "--peel, --peel=all, --no-peel, --peel-aligned, --no-single-pass, --no-privatise,\n"
  "--pipeline, --double-buffer, --unroll   as for clift run\n"
  "The cache lives in $CLIFT_TUNE_CACHE, else $XDG_CACHE_HOME/clift/tune, else\n"
  "~/.cache/clift/tune. Exit status 1 also when a candidate disagreed with the\n"
  "interpreter (a compiler bug: the configuration is printed).\n";

const char *const usage_bench =
  "usage: clift bench [-t TARGET] [--size N=V]… [--runs K] [--check] prog.lift\n"
  "       clift bench [-t TARGET] [--runs K] [--check] prog.fcl INPUTS…\n"
  "Time the program on fresh random inputs (floats in [-1, 1), ints in [0, 100)):\n"
  "one warm-up run, then K timed runs of the computation itself (compilation and\n"
  "input transfers excluded); prints the median, min and max in ms.\n"
  "An APL or TAIL program (prog.apl, prog.tail) runs on its own literals: its\n"
  "output is printed once (a benchmark's checksum), then the time of the front\n"
  "end and code generation (the C, OpenCL or CUDA compiler excluded) and the\n"
  "median of the runs; --size, --seed, --check and --tunable do not apply.\n"
  "An FCL program (prog.fcl; docs/fcl.md §6) runs on the inputs given after it,\n"
  "as for clift run (literals, @file, file.npy), compiled once for their shapes;\n"
  "the line names the inputs (scalars, and arrays as their lengths, [N]);\n"
  "--check compares with the FCL interpreter; --size, --seed and --tunable do\n"
  "not apply.\n"
  "-t TARGET      openmp (default), c, opencl, cuda, interp, or auto (the first\n"
  "               of cuda, opencl, openmp that runs here)\n"
  "--size N=V     the value of each size variable (all are required)\n"
  "--runs K       timed runs (default 10)\n"
  "--check        first compare the result with the interpreter's (small sizes)\n"
  "--tolerance X  relative tolerance of --check (default 1e-4)\n"
  "--seed S       random seed (default: from the clock)\n"
  "--device K     opencl: the K-th OpenCL device over all platforms\n"
  "--local-size X[,Y[,Z]], --global-size X[,Y[,Z]]\n"
  "               launch sizes (opencl, cuda; a usage error on other targets)\n"
  "--peel, --peel=all, --no-peel\n"
  "               stencils over padded windows, map f (slide (pad …)), in three\n"
  "               sections (the borders with their bounds checks, the interior without;\n"
  "               seed 002): the default for strategy-free maps; --peel peels mapGlb\n"
  "               and mapSeq too, --no-peel none; on opencl and cuda only windows of 5\n"
  "               and more (a cost rule, noted in the code), --peel=all any window\n"
  "               (docs/language.md, Stencils)\n"
  "--peel-aligned\n"
  "               opencl/cuda, for measuring: a peeled interior's work-items at the\n"
  "               positions the unpeeled loop gives them (item x computes window x)\n"
  "--no-single-pass  filter and scan in three steps (clift run --help)\n"
  "--no-privatise   accumulators of a work-group in local memory (clift run --help)\n"
  "--pipeline, --double-buffer, --unroll   device loops (clift run --help)\n"
  "--tunable NAME=V  the value of a tunable size (docs/tuning.md)\n"
  "--no-tune-cache   ignore the configuration clift tune stored (clift run --help)\n";
