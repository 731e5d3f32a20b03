/* type.h — data types of the language (SPEC §3.2). */
#ifndef CLIFT_TYPE_H
#define CLIFT_TYPE_H
#include "../arith/nat.h"

typedef enum {
  TY_INT, TY_LONG, TY_FLOAT, TY_DOUBLE, TY_BOOL,   /* scalars */
  TY_ARRAY,    /* [elem]len; position-dependent when index != NULL: [index -> elem]len */
  TY_TUPLE,    /* fields[0..n-1] */
  TY_VECTOR,   /* elem (a scalar) × width: float4 etc. */
  TY_IDX,      /* idx(len): an int known to lie in 0..len-1 */
  TY_EXISTS    /* {∃ exvar. [elem]exvar}: `array` holds the array type mentioning exvar */
} TypeKind;

typedef struct Type Type;
struct Type {
  TypeKind kind;
  Type *elem;        /* ARRAY, VECTOR */
  Nat *len;          /* ARRAY length, IDX bound */
  NatVar *index;     /* ARRAY: the position variable of a dep-array, else NULL */
  int n;             /* TUPLE field count */
  Type **fields;     /* TUPLE */
  int width;         /* VECTOR */
  NatVar *exvar;     /* EXISTS: the hidden length */
  Type *array;       /* EXISTS: body */
};

Type *type_scalar(TypeKind k);
Type *type_array(Type *elem, Nat *len);
Type *type_dep_array(NatVar *index, Type *elem, Nat *len);
Type *type_tuple(int n, Type **fields);
Type *type_tuple2(Type *a, Type *b);
Type *type_vector(Type *elem, int width);
Type *type_idx(Nat *bound);
Type *type_exists(NatVar *exvar, Type *array);

bool type_is_scalar(Type *t);       /* int long float double bool */
bool type_is_numeric(Type *t);      /* int long float double */
bool type_is_float(Type *t);        /* float double, or vectors of them */
Type *type_scalar_of(Type *t);      /* t itself for scalars, elem for vectors */
/* Structural equality, array lengths compared with nat_equal (SPEC §3.2). */
bool type_equal(Type *a, Type *b);
/* Substitute a nat variable throughout a type. */
Type *type_subst(Type *t, NatVar *v, Nat *by);
/* The element type of array t ({∃…} too) at index i: a position-dependent
   array's element with its position replaced by i (SPEC §3.5). */
Type *type_elem_at(Type *t, Nat *i);
bool type_mentions(Type *t, NatVar *v);
/* Dynamic-length arrays as stored (SPEC §3.4): does t hold a {∃…} (t itself or
   the element of its arrays)? The type of its data, every {∃X.[T]X} as [T]
   at X's upper bound (NULL when a bound is unknown or a {∃…} holds another);
   the type of its lengths: int for a {∃…}, [int]n for [{∃…}]n, … */
bool type_has_exists(Type *t);
/* The element type below every array level of t (t itself if not an array). */
Type *type_innermost(Type *t);
Type *type_exists_upper(Type *t);
Type *type_exists_lens(Type *t);
/* Readable form: [float]N, [[float]4](N/4), (float x int), float4, {∃X.[float]X} */
const char *type_to_string(Type *t);
const char *type_scalar_name(TypeKind k);   /* "float", … (C spelling) */

#endif
