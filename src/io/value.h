/* value.h — run-time values of the reference interpreter and of inputs/outputs
   (SPEC §7). A value is a tree: scalars, arrays of values, tuples, vectors. */
#ifndef CLIFT_VALUE_H
#define CLIFT_VALUE_H
#include "../types/type.h"

typedef enum { VAL_INT, VAL_LONG, VAL_FLOAT, VAL_DOUBLE, VAL_BOOL,
               VAL_ARRAY, VAL_TUPLE, VAL_VECTOR,
               VAL_RAW   /* n bytes already in the compiled targets' flat layout (clift bench) */
} ValueKind;

typedef struct Value Value;
struct Value {
  ValueKind kind;
  union { int32_t i; int64_t l; float f; double d; bool b; } s;  /* scalars */
  int64_t n;         /* ARRAY length, TUPLE field count, VECTOR width */
  Value **elems;     /* ARRAY elements, TUPLE fields, VECTOR lanes (scalars) */
  unsigned char *raw;  /* RAW: the bytes (large benchmark inputs skip the value tree) */
};

Value *value_int(int32_t v);
Value *value_long(int64_t v);
Value *value_float(float v);
Value *value_double(double v);
Value *value_bool(bool v);
Value *value_array(int64_t n);            /* elems allocated, filled by caller */
Value *value_tuple(int n);
Value *value_vector(int n);
double value_as_double(Value *v);         /* numeric scalar → double */
int64_t value_as_long(Value *v);          /* numeric/bool scalar → integer */

/* Parse one input literal (`[1.0, 2.5]`, `[[1,2],[3,4]]`, `3`, `true`, `(1, 2.5)`
   for tuples) against the parameter's type. Ints are accepted where floats are
   expected. Array lengths are NOT checked here (the driver checks them against
   the size variables). On error: NULL and diag_error(LOC_NONE, "<what>: …") where
   <what> is the given description (e.g. "input 2 (ys)"). */
Value *value_parse(const char *text, Type *type, const char *what);
/* Read a NumPy .npy file (float32/float64/int32/int64/bool, C order) as a value
   of `type` (nested arrays of a scalar; the file's dtype must match the scalar). */
Value *value_read_npy(const char *path, Type *type, const char *what);
/* Write a value of `type` (regular nested arrays of a scalar) as .npy.
   Writes to a temporary file and renames, so no half-written output. */
bool value_write_npy(const char *path, Value *v, Type *type);
/* Print as a literal that value_parse reads back: floats %.9g, doubles %.17g. */
void value_print(Buf *b, Value *v);
/* Compare for tests: floats with relative tolerance tol (absolute near zero). */
bool value_close(Value *got, Value *want, double tol, Buf *why);

#endif
