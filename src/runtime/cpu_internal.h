/* cpu_internal.h — shared by the files of src/runtime: the flat buffer layout of
   types (cpu_layout.c), marshalling (cpu_marshal.c) and file writing (cpu_compile.c). */
#ifndef CLIFT_CPU_INTERNAL_H
#define CLIFT_CPU_INTERNAL_H
#include "cpu.h"

/* NatLookup over a NatBinding list (ctx is the list head). */
bool cpu_lookup(void *ctx, NatVar *v, long long *value);
/* Refuse what the flat layout cannot express yet: tuples, dynamic-length arrays.
   `what` names the culprit: "input 2 (xs)", "the result". */
bool cpu_type_supported(Type *t, const char *what);
/* The length of an array level under the bindings; false + diag when it cannot
   be evaluated or is negative. */
bool cpu_eval_len(Nat *len, NatBinding *b, const char *what, int64_t *out);
/* Bytes of a value of type t in the flat layout; false + diag on overflow etc. */
bool cpu_type_bytes(Type *t, NatBinding *b, const char *what, int64_t *out);
/* Number of scalars in the flat layout, as a size expression (for headers). */
Nat *cpu_type_scalars(Type *t);
size_t cpu_scalar_bytes(TypeKind k);
const char *cpu_scalar_ctype(TypeKind k);   /* "float", "int32_t", "uint8_t" … */

/* Copy a value into / read a value out of a flat buffer of cpu_type_bytes bytes. */
bool cpu_pack(Type *t, Value *v, NatBinding *b, const char *what, unsigned char *buf);
Value *cpu_unpack(Type *t, NatBinding *b, const char *what, const unsigned char *buf);
/* cpu_unpack, but a regular array of scalars becomes a flat value over buf itself
   (which must then live as long as the value: an arena buffer). */
Value *cpu_unpack_in_place(Type *t, NatBinding *b, const char *what, unsigned char *buf);
/* v is a flat value already in the flat layout of t (its buffer can be passed as is). */
bool cpu_flat_matches(Type *t, Value *v, NatBinding *b);

/* Write a file through a temporary name and rename, so no reader ever sees half
   of it; errors name `path`, never the temporary. */
bool cpu_write_file_atomic(const char *path, const char *data, size_t len);
/* mkdir -p; an error when `path` exists and is not a directory. */
bool cpu_make_dirs(const char *path);
/* DIR/FILE, with DIR exactly as the user gave it ("out/" gives "out/FILE"). */
const char *cpu_path_in(const char *dir, const char *file);

/* Shared by the `clift compile` writers (cpu_emit.c, opencl_emit.c): every
   parameter and the result have a flat layout; the header comment describing the
   sizes and buffers of p for the entry function `entry`; an include guard. */
bool cpu_library_supported(Program *p);
void cpu_describe_convention(Buf *b, Program *p, const char *entry);
const char *cpu_header_guard(const char *name);
/* The prefix of every exported symbol of the library NAME: NAME itself (a C
   identifier, made so by clift compile), or clift_NAME when NAME starts with a
   digit; NAME_run is the entry, so two programs link into one executable. */
const char *cpu_symbol_base(const char *name);

/* A tuple holding arrays (at the top of an input or the result, or inside such
   a tuple) is laid out field after field, each field starting at a multiple of
   CPU_SPLIT_ALIGN bytes from the tuple's start (docs/runtime.md §2); the
   generated code sees one buffer per field (dpia/program.c). */
enum { CPU_SPLIT_ALIGN = 64 };
bool cpu_split_tuple(Type *t);
bool cpu_split_offset(Type *t, int field, NatBinding *b, const char *what, int64_t *off);
Nat *cpu_split_offset_nat(Type *t, int field);   /* the same as a size expression */
Nat *cpu_type_bytes_nat(Type *t);                /* cpu_type_bytes as a size expression */

size_t cpu_align_of(Type *t);
size_t cpu_tuple_field_bytes(Type *t);
/* Offset of a field inside a tuple struct; *size (when not NULL) the struct's size. */
size_t cpu_field_offset(Type *t, int field, size_t *size);

#endif
