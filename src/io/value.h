/* value.h — run-time values of the reference interpreter and of inputs/outputs
   (SPEC §7). A value is a tree: scalars, arrays of values, tuples, vectors.
   A regular array of scalars may instead be FLAT: its scalars in one buffer in the
   compiled targets' layout (docs/values.md §5), so inputs and results of 10^7
   elements cost their bytes, not a boxed Value each. Read elements through
   value_elem / value_elem_at, which see both representations. */
#ifndef CLIFT_VALUE_H
#define CLIFT_VALUE_H
#include "../types/type.h"
#include <stdio.h>

typedef enum { VAL_INT, VAL_LONG, VAL_FLOAT, VAL_DOUBLE, VAL_BOOL,
               VAL_ARRAY, VAL_TUPLE, VAL_VECTOR,
               VAL_RAW,  /* n bytes already in the compiled targets' flat layout (clift bench) */
               VAL_MOVED, /* inside value_keep only: a node already copied (elems = where to) */
               VAL_FAILED /* interpreter only: an element of a lazy map whose computation
                             failed; s.i is the error's diag_set_aside handle, raised when
                             the element is read (interp_eval) */
} ValueKind;

typedef struct Value Value;
struct Value {
  ValueKind kind;
  unsigned char rank, leaf;   /* flat ARRAY only: see below (bytes, so a Value stays 48 bytes) */
  union { int32_t i; int64_t l; float f; double d; bool b; } s;  /* scalars */
  int64_t n;         /* ARRAY length, TUPLE field count, VECTOR width */
  Value **elems;     /* ARRAY elements, TUPLE fields, VECTOR lanes (scalars) */
  unsigned char *raw;  /* RAW: the bytes (large benchmark inputs skip the value tree);
                          flat ARRAY: the scalars, row-major */
  /* Flat ARRAY (rank > 0; elems unused): `rank` dimensions of extents shape[0..rank-1]
     (shape[0] == n) of scalars of kind `leaf`, stored as int32, int64, float, double
     or one byte per bool. A boxed ARRAY has rank 0. */
  const int64_t *shape;
};

Value *value_int(int32_t v);
Value *value_long(int64_t v);
Value *value_float(float v);
Value *value_double(double v);
Value *value_bool(bool v);
Value *value_array(int64_t n);            /* elems allocated, filled by caller */
Value *value_tuple(int n);
Value *value_vector(int n);
Value *value_failed(int handle);          /* VAL_FAILED */
/* The first VAL_FAILED in v (depth first), NULL if none. */
Value *value_find_failed(Value *v);
/* A flat array of the given shape, zeroed; or over existing data (not copied). */
Value *value_flat(ValueKind leaf, int rank, const int64_t *shape);
Value *value_flat_over(ValueKind leaf, int rank, const int64_t *shape, unsigned char *data);
static inline bool value_is_flat(const Value *v) { return v->kind == VAL_ARRAY && v->rank > 0; }
size_t value_scalar_size(ValueKind leaf);     /* bytes of one flat scalar */
int64_t value_flat_row_scalars(const Value *v); /* scalars per element (product of shape[1..]) */
/* Element i of an array (either representation), tuple or vector. For a flat array
   it is made on the spot: value_elem allocates it, value_elem_at fills *tmp (for
   readers that do not keep it) and returns tmp. */
Value *value_elem(Value *v, int64_t i);
Value *value_elem_at(Value *v, int64_t i, Value *tmp);
/* Store x as element i of array a: the pointer for a boxed array, the scalars for a
   flat one (x must then have the element's kind and shape; false if not). A
   x holding a VAL_FAILED makes a flat array boxed first (allocated now). */
bool value_set_elem(Value *a, int64_t i, Value *x);
/* The representation an array of element type `elem` gets when built element by
   element (interp, unpacking): flat when elem is a scalar or a regular array of
   scalars. *leaf and *rank (the element's own dimensions) are set; false = boxed. */
bool value_flat_elem_type(Type *elem, ValueKind *leaf, int *rank);
ValueKind value_kind_of_scalar(TypeKind k);    /* TY_FLOAT -> VAL_FLOAT, TY_IDX -> VAL_INT */
/* Keep v and free everything else allocated in the arena since mark: the parts of
   v allocated after the mark are copied down to it. The interpreter's loops call
   this after each iteration, so memory stays proportional to the live values. */
Value *value_keep(Value *v, ArenaMark mark);
double value_as_double(Value *v);         /* numeric scalar → double */
int64_t value_as_long(Value *v);          /* numeric/bool scalar → integer */

/* Parse one input literal (`[1.0, 2.5]`, `[[1,2],[3,4]]`, `3`, `true`, `(1, 2.5)`
   for tuples) against the parameter's type. Ints are accepted where floats are
   expected. Array lengths are NOT checked here (the driver checks them against
   the size variables). On error: NULL and diag_error(LOC_NONE, "<what>: …") where
   <what> is the given description (e.g. "input 2 (ys)"). */
Value *value_parse(const char *text, Type *type, const char *what);
/* value_parse of the text in a file (an @file input), the same values and
   messages; a regular array of scalars is parsed in chunks, never holding the
   text. A file that cannot be read: "<what>: cannot open 'path': reason". */
Value *value_parse_file(const char *path, Type *type, const char *what);
/* Read a NumPy .npy file (float32/float64/int32/int64/bool, C order) as a value
   of `type` (nested arrays of a scalar; the file's dtype must match the scalar).
   A packed type (value_npy_packed) reads as a flat 1-D array of its scalars. */
Value *value_read_npy(const char *path, Type *type, const char *what);
/* Is t stored packed in .npy (SPEC §3.5): an array type with a position-dependent
   level, whose scalars go row after row in one dimension? */
bool value_npy_packed(Type *t);
/* Write a value of `type` (regular nested arrays of a scalar, or packed) as .npy.
   Writes to a temporary file and renames, so no half-written output. */
bool value_write_npy(const char *path, Value *v, Type *type);
/* Print as a literal that value_parse reads back: floats %.9g, doubles %.17g.
   value_print_line writes it and a newline to a file through a fixed buffer (no
   copy of the text) and flushes; false + diag when the file cannot be written. */
void value_print(Buf *b, Value *v);
bool value_print_line(FILE *f, Value *v);
/* Compare for tests: floats with relative tolerance tol (absolute near zero). */
bool value_close(Value *got, Value *want, double tol, Buf *why);

#endif
