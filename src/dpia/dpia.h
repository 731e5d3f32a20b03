/* dpia.h — internals of the DPIA translation (seed 004), shared by its files:
   views (read-only array expressions: exp[T] phrases), acceptors (acc[T]),
   and the translator state. The rules per primitive are in rules_*.c and are
   reached through the primitive table. */
#ifndef CLIFT_DPIA_H
#define CLIFT_DPIA_H
#include "kernel.h"
#include "../prim/prim.h"
#include "../syntax/ast.h"

/* ---- paths: the indices and tuple fields that reach one element (stage III) ---- */
typedef struct PathElem { Nat *index; int field; } PathElem;   /* field >= 0: a projection */
typedef struct Path { int n; PathElem *e; } Path;
Path path_prepend_index(Path p, Nat *i);
Path path_prepend_field(Path p, int field);
Path path_drop(Path p, int k);

/* ---- views: how to read an expression of array/tuple/scalar type ---- */
typedef enum {
  V_SCALAR,     /* a resolved scalar/vector value: `scalar` */
  V_BUF,        /* a buffer, read row-major */
  V_IDX,        /* kids[0] at index a */
  V_PROJ,       /* field k of kids[0] */
  V_SPLIT,      /* split a kids[0] */
  V_JOIN,       /* join of kids[0], rows of length a */
  V_TRANSPOSE,
  V_ZIP,        /* kids[0..n-1] */
  V_TUPLE,      /* kids[0..n-1] as a tuple value */
  V_SLIDE,      /* slide a (size) b (step) */
  V_PAD,        /* clamp: a left, c = inner length */
  V_PADC,       /* constant: a left, c = inner length, kids[1] the constant */
  V_IOTA,
  V_ASVEC,      /* asVector k */
  V_ASSCALAR,   /* asScalar of vectors of width k */
  V_SLICE,      /* from a */
  V_MAP,        /* lazy map: fn applied on access (fused into the consumer) */
  V_ONE,        /* a [T]1 holding the scalar view kids[0] */
  V_UNZIP,      /* field k of every element of kids[0] */
  V_SOA         /* arrays (k dimensions) of tuples stored field by field: kids[f] holds field f */
} ViewKind;

typedef struct Binding Binding;
typedef struct View View;
struct View {
  ViewKind kind;
  Type *type;
  CExp *scalar;
  Buffer *buf;
  Nat *a, *b, *c;
  int k;
  int n; View **kids;
  Expr *fn; Binding *env;    /* V_MAP */
  /* A dynamic-length array {∃X.[T]X} (its data stored at its upper bound):
     a view of its run-time length, an int; an array of them: a view of an
     array of those ints (SPEC §3.4; dpia/exists.c). NULL otherwise. */
  View *len;
  /* An element of a position-dependent array ([i -> T]n): the index it was
     taken at, where a function applied to it binds i (position.c). */
  Nat *pos;
};

View *view_scalar(CExp *e);
View *view_buf(Buffer *b);
View *view_new(ViewKind kind, Type *type, int n);

/* ---- acceptors: where to write ---- */
typedef enum {
  AC_BUF,       /* a buffer, written row-major */
  AC_VAR,       /* a private scalar variable */
  AC_IDX,       /* kids at index a */
  AC_PROJ,      /* field k */
  AC_SPLIT,     /* accepts [[T]m]n into [T](m*n): a = m */
  AC_JOIN,      /* accepts [T](m*n) into [[T]m]n: a = m */
  AC_ASVEC,     /* accepts [S<k>]n into [S](k*n) */
  AC_ASSCALAR,  /* accepts [S](k*n) into [S<k>]n */
  AC_TRANSPOSE, /* accepts [[T]n]m into [[T]m]n */
  AC_ZIPFIELD,  /* accepts [Tk]n as field k of [T1 x … ]n */
  AC_OFFSET,    /* accepts [T]n into kid[a .. a+n) (the interior of a padConstant) */
  AC_MAP,       /* accepts [T]n: element i through `tmpl`, whose AC_HOLE is kid[i] (mapAcc) */
  AC_HOLE,      /* inside an AC_MAP's template: the element of `map` being written */
  AC_SOA        /* accepts k dimensions of tuples, field f written into kids[f] (k = 0: a tuple) */
} AccKind;

typedef struct Acc Acc;
struct Acc {
  AccKind kind;
  Type *type;        /* the type of what it accepts */
  Buffer *buf;
  const char *var;
  Nat *a;
  int k;
  Acc *kid;
  Acc *tmpl;         /* AC_MAP */
  Acc *map;          /* AC_HOLE: its AC_MAP */
  Nat *current;      /* AC_MAP: the index being resolved (stage III is synchronous) */
  int n; Acc **kids; /* AC_SOA */
  Acc *len;          /* {∃X.[T]X} (or an array of them): where its length (lengths) go, as View.len */
};

Acc *acc_buf(Buffer *b);
Acc *acc_new(AccKind kind, Type *type, Acc *kid);
Acc *acc_idx(Acc *a, Nat *i);
Acc *acc_proj(Acc *a, int field);
Acc *acc_soa(Type *type, int depth, int n);   /* AC_SOA with n (unset) kids */

/* ---- the translator ---- */
struct Binding { int uid; View *view; Binding *next; };
/* The tile of a top-level reduce's first pass being translated (tiles.c):
   its work-group loop's variable, the number of tiles inside the input, the
   padded input (a V_PADC) its maps' reads are versioned on. */
typedef struct TileReads { NatVar *wid; Nat *full; View *padded; } TileReads;
/* dim and loop: of a map's loop (dpia_map_range_at), NULL elsewhere */
typedef struct ParLoop { NatVar *var; Nat *count; PrimLevel level; struct ParLoop *outer; int dim; KStmt *loop; } ParLoop;

typedef struct Tr {
  Kernel *k;
  KStmt *block;      /* where commands are emitted (the continuation's position) */
  Binding *env;
  ParLoop *par;      /* enclosing parallel loops, innermost first */
  int seq;           /* enclosing sequential loops (mapSeq, reduceSeq) */
  int counter;
  NatVar **rigid; int nrigid, rigid_cap;   /* run-time lengths bound so far (exists.c) */
  bool refused;      /* a temporary that cannot be allocated was asked for (diag_unsupported given) */
  bool priv_failed;  /* a partitioned private buffer was accessed otherwise (privatise.c): translate again without */
  const GenOptions *gen;
  Expr *grid_inner;  /* the inner map of a 2-D default nest (Program.grid2d): mapGlb of dimension 0 */
  TileReads *tile;   /* inside a top-level reduce's tile, until a map reading the input is versioned (tiles.c) */
} Tr;

/* Stage I: acceptor-passing A(e)(out) and continuation-passing C(e) (which
   emits what must run first into tr->block and returns a view of e). */
bool dpia_acc(Tr *tr, Expr *e, Acc *out);
View *dpia_exp(Tr *tr, Expr *e);
/* Apply a lambda to argument views (binding its parameters). */
View *dpia_apply(Tr *tr, Expr *lam, View **args);
/* v, with every row of a lazy map that needs commands computed once, here,
   before a sequential loop of `count` iterations reads all of v (translate.c). */
View *dpia_force(Tr *tr, View *v, Nat *count);
bool dpia_apply_acc(Tr *tr, Expr *lam, View **args, Acc *out);
/* Element `at` of xs as argument `param` of lam: a placeholder when lam never
   reads that parameter and the element is a value, which would be computed
   here with its checks (an unread element of a lazy map runs none: FINDINGS F39) */
View *dpia_arg_at(Tr *tr, Expr *lam, int param, View *xs, Nat *at);
/* Does e read the variable of binding `uid` (uids are unique: no shadowing)? */
bool dpia_reads_var(Expr *e, int uid);
/* Does e hold an unpack (a dynamic-length array bound by let, types/exists.c)? Cached in e. */
bool dpia_has_unpack(Expr *e);
/* The statements of `inner` (a block of its own, KStmt.scope) emitted, with
   value c, computed in it, copied into a variable declared before it: that
   variable (c itself when it names nothing). view.c's lazy map. */
CExp *dpia_scoped_value(Tr *tr, KStmt *inner, CExp *c);
/* out := v, structurally (tuples field by field, arrays by a loop). */
bool dpia_assign(Tr *tr, Acc *out, View *v, Type *t);
/* The same with the outermost array loop shared by the work-items of a group
   (a mapLcl loop), for local memory written at work-group level. */
bool dpia_assign_shared(Tr *tr, Acc *out, View *v, Type *t);
/* The same with the outermost array loop at `level`. */
bool dpia_assign_at(Tr *tr, Acc *out, View *v, Type *t, PrimLevel level);
/* A fresh temporary of type t in space s, hoisted out of the enclosing
   parallel loops (SPEC §5); sets *view and *acc for it. */
void dpia_new(Tr *tr, Type *t, AddrSpace s, View **view, Acc **acc);
/* cond ? vals[0] : vals[1] where computing vals[k] needs the commands of
   blocks[k] (or runs a check): an if statement, each branch doing only its
   own work; returns the variable holding the value. */
CExp *dpia_guarded(Tr *tr, CExp *cond, KStmt *blocks[2], CExp *vals[2], Type *t);
bool cexp_checks(CExp *e);
int dpia_get_field(Expr *e);   /* the field (from 0) a get1/get2/(get #k t) selects */   /* does evaluating e run a reporting check (SPEC §8)? */
/* Emit a loop over [0, n) and return its body block (stage II). */
KStmt *dpia_loop(Tr *tr, PrimLevel level, int dim, Nat *n, NatVar **var);
const char *dpia_fresh(Tr *tr, const char *base);

/* A map's loop over [from, from + count) of xs at `level`: out[from + i] :=
   f(xs[from + i]) (rules_map.c). */
bool dpia_map_range(Tr *tr, Expr *e, View *xs, PrimLevel level, Nat *from, Nat *count, Acc *out);
/* The same in dimension `dim` rather than the primitive's. */
bool dpia_map_range_dim(Tr *tr, Expr *e, View *xs, PrimLevel level, int dim, Nat *from, Nat *count, Acc *out);
/* The borders of padConstant l r c (a row of inner length n) written into out,
   in the current thread (rules_layout.c). */
bool dpia_write_borders(Tr *tr, Acc *out, Nat *l, Nat *n, Nat *r, View *c, Type *t);
/* privatise.c: a work-group's accumulator partitioned by mapLcl, kept in
   each work-item's registers (k outer dimensions, their mapLcl dimensions
   and lengths). */
typedef struct Partition { int k; int dim[3]; long long n[3]; } Partition;
bool dpia_partition_of(Tr *tr, Expr *f, Type *t, Partition *part);
void dpia_new_partitioned(Tr *tr, Type *t, const Partition *part, View **view, Acc **acc);
bool dpia_assign_partitioned(Tr *tr, Acc *out, View *v, Type *t, const Partition *part);
bool dpia_partition_check(Tr *tr, Buffer *b, Path p);
/* A map over the windows of a padded array, in three sections (peel.c);
   *done false: not such a map (or peeling is off), nothing emitted. */
bool dpia_peel(Tr *tr, Expr *e, View *ws, PrimLevel level, Acc *out, bool *done);
/* A top-level reduce's first pass (Expr.full_tiles) on a device target: its
   loop, with tr->tile set for the tile's body (tiles.c); *done false: not that
   pass, nothing emitted. */
bool dpia_map_tiles(Tr *tr, Expr *e, View *xs, PrimLevel level, int dim, Acc *out, bool *done);
/* In such a tile, a map reading the input: two copies of its loop, the one
   for the tiles inside the input without the padding's checks (tiles.c);
   *done false: not such a map, nothing emitted. */
bool dpia_map_tile_reads(Tr *tr, Expr *e, View *xs, PrimLevel level, int dim, Acc *out, bool *done);

/* The parallel filter and scan at the top of a program (rules_filter.c,
   rules_map.c): a parallel loop over chunks of DPIA_CHUNK elements of [0, n);
   its body gets the chunk's first element and length, and *loop to push as
   tr->par while translating the body. */
enum { DPIA_CHUNK = 1024 };
/* The same in one pass with decoupled look-back on the device targets
   (GenOptions.single_pass; lookback.c): does the pass fit (scalar values,
   its tiles in local memory)? The filter's kept elements go through `post`
   (a function, or NULL) into out, a {∃…}; the scan writes out[i]. */
bool dpia_single_pass_fits(Type *elem, Type *t, bool filter);
/* CLIFT_LB_MIN_BLOCKS (lookback.c, an experiment): m > 0 asks cuda for m groups of
   *group work-items per multiprocessor on the one pass's kernel; 0: nothing. */
int dpia_single_pass_min_blocks(int *group);
bool dpia_filter_single_pass(Tr *tr, Expr *p, Expr *post, View *xs, Type *elem, Nat *n, Acc *out);
bool dpia_scan_single_pass(Tr *tr, Expr *f, View *init, View *xs, Type *t, Nat *n, Acc *out);
/* Marks every assignment in s `disjoint` (race.c trusts it): places that
   differ by construction, not by index (offsets a scan computed). */
void dpia_mark_disjoint(KStmt *s);
/* (map f (filter p xs)) at the top in that one pass, f applied to the kept
   elements as they are written (rules_filter.c); *done false: not that. */
bool dpia_filter_then_map(Tr *tr, Expr *pack, Acc *out, bool *done);
Nat *dpia_chunks(Nat *n);
KStmt *dpia_chunk_loop(Tr *tr, Nat *n, NatVar **c, Nat **from, Nat **count, ParLoop *loop);

/* Stage III: reading and writing single elements. */
View *view_idx(Tr *tr, View *v, Nat *i);     /* resolves when the element is scalar */
View *view_proj(Tr *tr, View *v, int field);
CExp *view_resolve(Tr *tr, View *v, Path p);  /* the scalar at path p */
CExp *acc_resolve(Tr *tr, Acc *a, Path p);    /* the lvalue at path p */
bool type_is_value(Type *t);                  /* scalar or vector: resolved eagerly */

/* ---- dynamic-length arrays (exists.c, SPEC §3.4) ---- */
bool exists_in(Type *t);                     /* does t hold a {∃…} (in arrays, not in tuples)? */
/* The type its data is stored as: every {∃X.[T]X} as [T](X's upper bound).
   NULL + diag_unsupported when a bound is not known before the program runs. */
Type *exists_upper(Type *t);
/* The type of its lengths: int for {∃…}, [int]n for [{∃…}]n, … */
Type *exists_lens(Type *t);
/* v (of type {∃X.[T]X}) as an ordinary array of its run-time length: a size
   variable `rigid` bound (KS_COUNT) to the length; the view retyped [T]rigid. */
View *exists_open(Tr *tr, View *v, NatVar *rigid);
/* out (of type {∃…}) receiving an array of length `len`: the length written,
   and the acceptor of the data, typed [T]len. */
Acc *exists_accept(Tr *tr, Acc *out, Nat *len);
bool exists_set_len(Tr *tr, Acc *out, CExp *len);
/* t with every run-time length replaced by its upper bound: how a temporary
   allocated before the program runs is sized (its strides too). */
Type *exists_bounded(Tr *tr, Type *t);
/* v, a layout (join, split, transpose, slice) of an array of {∃…}, with the
   lengths in the same layout; a, the inverse-layout acceptor of out, the same. */
View *exists_layout_view(View *v);
Acc *exists_layout_acc(Acc *a, Acc *out);
/* A view of type t (a {∃…}) over data `data` of length `len` (an int). */
View *exists_view(View *data, Type *t, CExp *len);
Nat *type_len(Type *t);

/* ---- position-dependent arrays (position.c, SPEC §3.5) ---- */
bool dpia_dependent(Type *t);                /* does t hold a [i -> T]n? */
/* lam itself, or, when it takes elements of a position-dependent array, a
   copy of it at the position of the argument that has one (View.pos);
   NULL + diag_unsupported when none has. */
Expr *dpia_at_position(Expr *lam, View **args);
/* t with every length that names an index of an enclosing sequential loop at
   its largest: how a temporary allocated before the loop runs is sized. */
Type *dpia_unplaced(Tr *tr, Type *t);
/* The offset in flattened elements of the element at path p (indices only)
   of a buffer of type t; *leaf the type found there. An offset whose Σ has
   no closed form is refused (SPEC §3.5: no loop in an index; tr->refused). */
Nat *dpia_flat_offset(Tr *tr, Type *t, Path p, Type **leaf);
/* The same, a Σ left open where the arithmetic cannot close it (no refusal). */
Nat *dpia_flat_offset_open(Type *t, Path p, Type **leaf);
/* Where row i of the position-dependent array t starts: Σ_{k<i} of the row
   lengths, in the rows' elements. */
Nat *dpia_row_start(Tr *tr, Type *t, Nat *i);
/* (join xs) of a position-dependent xs: a V_JOIN (a = NULL) over xs packed in
   a buffer (copied into one first when it is not), read at [k] as the k-th
   element after the first row's first (dpia_packed_read). */
View *dpia_join_packed(Tr *tr, Expr *e);
CExp *dpia_packed_read(Tr *tr, View *join, Nat *k, Path rest);

#endif
