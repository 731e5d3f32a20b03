/* layout.h — the flat buffer layout that every compiled target shares (the
   generated C, OpenCL and CUDA index it; docs/runtime.md §2): arrays
   row-major, position-dependent arrays packed (row i right after row i-1),
   vectors as `width` consecutive scalars, bool as one byte, idx(n) as int32,
   tuples as C structs, a tuple holding arrays split field by field. Below
   DPIA, codegen and the runtimes: layout.c gives sizes and offsets, marshal.c
   copies values in and out. */
#ifndef CLIFT_LAYOUT_H
#define CLIFT_LAYOUT_H
#include "../types/type.h"
#include "../io/value.h"

/* NatLookup over a NatBinding list (ctx is the list head). */
bool layout_lookup(void *ctx, NatVar *v, long long *value);
/* Refuse what the flat layout cannot express yet: tuples, dynamic-length arrays.
   `what` names the culprit: "input 2 (xs)", "the result". */
bool layout_type_supported(Type *t, const char *what);
/* The length of an array level under the bindings; false + diag when it cannot
   be evaluated or is negative. */
bool layout_eval_len(Nat *len, NatBinding *b, const char *what, int64_t *out);
/* Bytes of a value of type t in the flat layout; false + diag on overflow etc. */
bool layout_type_bytes(Type *t, NatBinding *b, const char *what, int64_t *out);
/* Number of scalars in the flat layout, as a size expression (for headers). */
Nat *layout_type_scalars(Type *t);
/* Number of flattened elements (scalars, vectors or tuple structs: what a
   buffer of type t is an array of), position-dependent levels summed. */
Nat *layout_type_elements(Type *t);
size_t layout_scalar_bytes(TypeKind k);
const char *layout_scalar_ctype(TypeKind k);   /* "float", "int32_t", "uint8_t" … */

/* Copy a value into / read a value out of a flat buffer of layout_type_bytes bytes. */
bool layout_pack(Type *t, Value *v, NatBinding *b, const char *what, unsigned char *buf);
Value *layout_unpack(Type *t, NatBinding *b, const char *what, const unsigned char *buf);
/* layout_unpack, but a regular array of scalars becomes a flat value over buf itself
   (which must then live as long as the value: an arena buffer). */
Value *layout_unpack_in_place(Type *t, NatBinding *b, const char *what, unsigned char *buf);
/* v is a flat value already in the flat layout of t (its buffer can be passed as is). */
bool layout_flat_matches(Type *t, Value *v, NatBinding *b);

/* A tuple holding arrays (at the top of an input or the result, or inside such
   a tuple) is laid out field after field, each field starting at a multiple of
   LAYOUT_SPLIT_ALIGN bytes from the tuple's start (docs/runtime.md §2); the
   generated code sees one buffer per field (dpia/program.c). */
enum { LAYOUT_SPLIT_ALIGN = 64 };
bool layout_split_tuple(Type *t);
/* An array (of regular levels) of such tuples is laid out as the split tuple of
   its fields' arrays, a structure of arrays: [(A x [B]M)]N as ([A]N, [[B]M]N)
   (docs/runtime.md §2). layout_soa_depth: its number of array levels (0 for any
   other type); layout_soa: that tuple (t itself for any other type). */
int layout_soa_depth(Type *t);
Type *layout_soa(Type *t);
bool layout_split_offset(Type *t, int field, NatBinding *b, const char *what, int64_t *off);
Nat *layout_split_offset_nat(Type *t, int field);   /* the same as a size expression */
Nat *layout_type_bytes_nat(Type *t);                /* layout_type_bytes as a size expression */
/* A result holding dynamic-length arrays (SPEC §3.4) is its data at the upper
   bounds (type_exists_upper), then, from this offset (a multiple of
   LAYOUT_SPLIT_ALIGN), its run-time lengths as int32 (type_exists_lens);
   layout_unpack reads only the elements below each length. */
bool layout_lens_offset(Type *t, NatBinding *b, const char *what, int64_t *out);
/* The bytes from the start of such a result's buffer that hold every element below
   its lengths, the lengths read from buf (only they need to be there): what a
   device copies back. */
bool layout_kept_bytes(Type *t, NatBinding *b, const char *what, const unsigned char *buf, int64_t *extent);
Nat *layout_lens_offset_nat(Type *t);

size_t layout_align_of(Type *t);
size_t layout_tuple_field_bytes(Type *t);
/* Offset of a field inside a tuple struct; *size (when not NULL) the struct's size. */
size_t layout_field_offset(Type *t, int field, size_t *size);

#endif
