/* npy.c — NumPy .npy input and output (SPEC §7): regular C-order arrays of one of
   float32, float64, int32, int64, bool, little-endian. A vector element type adds
   a last dimension of its width ([float4]N ↔ shape (N, 4)). See docs/values.md. */
#include "value.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { NPY_MAX_DIMS = 32 };

/* ---- the parameter's side: how many dimensions, which scalar ---- */

bool value_npy_packed(Type *t) {
  for (; t->kind == TY_ARRAY; t = t->elem) if (t->index && type_mentions(t->elem, t->index)) return true;
  return false;
}

/* The scalar at the bottom of nested arrays, and the number of dimensions;
   NULL when the type is not a regular array of scalars (a tuple somewhere).
   Rows of a position-dependent array differ in length, so it is no regular
   ndarray: it is stored packed, its scalars row after row in one dimension
   (SPEC §3.5; inputs.c gives the rows their lengths once the sizes are bound). */
static Type *npy_leaf(Type *t, int *dims) {
  *dims = 0;
  bool packed = t->kind == TY_ARRAY && value_npy_packed(t);
  for (;;) {
    if (t->kind == TY_EXISTS) t = t->array;
    if (t->kind != TY_ARRAY) break;
    (*dims)++;
    t = t->elem;
  }
  if (packed) {
    *dims = 1;
    return type_is_scalar(t) ? t : NULL;
  }
  if (t->kind == TY_VECTOR) { (*dims)++; t = t->elem; }
  if (t->kind == TY_IDX) return type_scalar(TY_INT);
  return type_is_scalar(t) ? t : NULL;
}

/* The dtype each scalar type is stored as, in numpy's spelling. */
static const struct { TypeKind kind; const char *descr, *name; int size; } dtypes[] = {
  { TY_FLOAT, "f4", "float32", 4 }, { TY_DOUBLE, "f8", "float64", 8 },
  { TY_INT, "i4", "int32", 4 },     { TY_LONG, "i8", "int64", 8 },
  { TY_BOOL, "b1", "bool", 1 },
};
enum { NPY_NDTYPES = sizeof dtypes / sizeof dtypes[0] };

static int dtype_of_kind(TypeKind k) {
  for (int i = 0; i < NPY_NDTYPES; i++) if (dtypes[i].kind == k) return i;
  return -1;
}

/* ---- reading the header: a Python dict literal ---- */

typedef struct Header {
  char descr[16];
  bool fortran, have_descr, have_fortran, have_shape;
  int ndim;
  int64_t shape[NPY_MAX_DIMS];
} Header;

typedef struct Reader { const char *p, *end, *what, *path; } Reader;

static void hskip(Reader *R) { while (R->p < R->end && strchr(" \t\r\n", *R->p)) R->p++; }
static bool hlit(Reader *R, const char *s) {
  hskip(R);
  size_t n = strlen(s);
  if ((size_t)(R->end - R->p) < n || memcmp(R->p, s, n) != 0) return false;
  R->p += n;
  return true;
}

/* A quoted string ('…' or "…") into out. */
static bool hstring(Reader *R, char *out, size_t cap) {
  hskip(R);
  if (R->p >= R->end || (*R->p != '\'' && *R->p != '"')) return false;
  char q = *R->p++;
  size_t n = 0;
  while (R->p < R->end && *R->p != q) { if (n + 1 < cap) out[n++] = *R->p; R->p++; }
  if (R->p >= R->end) return false;
  R->p++;
  out[n] = 0;
  return true;
}

static bool hshape(Reader *R, Header *h) {
  if (!hlit(R, "(")) return false;
  h->ndim = 0;
  for (;;) {
    hskip(R);
    if (hlit(R, ")")) return true;
    if (R->p >= R->end || *R->p < '0' || *R->p > '9' || h->ndim == NPY_MAX_DIMS) return false;
    int64_t d = 0;
    while (R->p < R->end && *R->p >= '0' && *R->p <= '9') {
      if (d > (INT64_MAX - 9) / 10) return false;
      d = d * 10 + (*R->p++ - '0');
    }
    h->shape[h->ndim++] = d;
    if (!hlit(R, ",")) return hlit(R, ")");
  }
}

static bool header_parse(Reader *R, Header *h) {
  if (!hlit(R, "{")) return false;
  for (;;) {
    if (hlit(R, "}")) return true;
    char key[32];
    if (!hstring(R, key, sizeof key) || !hlit(R, ":")) return false;
    if (strcmp(key, "descr") == 0) {
      if (!hstring(R, h->descr, sizeof h->descr)) return false;  /* a list: structured dtype */
      h->have_descr = true;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (hlit(R, "True")) h->fortran = true;
      else if (hlit(R, "False")) h->fortran = false;
      else return false;
      h->have_fortran = true;
    } else if (strcmp(key, "shape") == 0) {
      if (!hshape(R, h)) return false;
      h->have_shape = true;
    } else {
      return false;
    }
    if (!hlit(R, ",")) return hlit(R, "}");
  }
}

static const char *shape_string(const int64_t *shape, int ndim) {
  Buf b = {0};
  buf_putc(&b, '(');
  for (int i = 0; i < ndim; i++) buf_printf(&b, i ? ", %lld" : "%lld", (long long)shape[i]);
  buf_puts(&b, ndim == 1 ? ",)" : ")");
  return buf_str(&b);
}

/* ---- reading the data ---- */

static uint64_t load_le(const unsigned char *p, int size) {
  uint64_t x = 0;
  for (int i = size - 1; i >= 0; i--) x = x << 8 | p[i];
  return x;
}

static Value *scalar_from_bytes(TypeKind k, const unsigned char *p, Value *slot) {
  uint64_t bits = load_le(p, dtypes[dtype_of_kind(k)].size);
  slot->kind = k == TY_INT ? VAL_INT : k == TY_LONG ? VAL_LONG : k == TY_FLOAT ? VAL_FLOAT
             : k == TY_DOUBLE ? VAL_DOUBLE : VAL_BOOL;
  switch (k) {
  case TY_INT:    slot->s.i = (int32_t)(uint32_t)bits; break;
  case TY_LONG:   slot->s.l = (int64_t)bits; break;
  case TY_FLOAT:  { uint32_t u = (uint32_t)bits; memcpy(&slot->s.f, &u, 4); break; }
  case TY_DOUBLE: memcpy(&slot->s.d, &bits, 8); break;
  default:        slot->s.b = bits != 0; break;
  }
  return slot;
}

typedef struct Builder {
  const unsigned char *data;
  TypeKind kind;
  int size;            /* bytes per element */
  bool vector_last;    /* the last dimension is a vector's lanes */
  Value *scalars;      /* all leaves, allocated in one block */
  int64_t next;        /* next leaf */
} Builder;

static Value *build(Builder *B, const int64_t *shape, int ndim) {
  if (ndim == 0) {
    int64_t i = B->next++;
    return scalar_from_bytes(B->kind, B->data + i * B->size, &B->scalars[i]);
  }
  Value *v = ndim == 1 && B->vector_last ? value_vector((int)shape[0]) : value_array(shape[0]);
  for (int64_t i = 0; i < shape[0]; i++) v->elems[i] = build(B, shape + 1, ndim - 1);
  return v;
}

/* The data of a .npy file already is a flat array (value.h): little-endian C
   order. Only bools (any nonzero byte is true) and big-endian hosts need a pass. */
static Value *flat_in_place(unsigned char *data, TypeKind k, int size, Header *h, int64_t count) {
  if (k == TY_BOOL) for (int64_t i = 0; i < count; i++) data[i] = data[i] != 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  for (int64_t i = 0; i < count; i++)
    for (int a = 0, b = size - 1; a < b; a++, b--) {
      unsigned char c = data[i * size + a]; data[i * size + a] = data[i * size + b]; data[i * size + b] = c;
    }
#else
  (void)size;
#endif
  return value_flat_over(value_kind_of_scalar(k), h->ndim, h->shape, data);
}

/* Checks that need the header and the parameter's type together. */
static bool header_check(Reader *R, Header *h, Type *type, int *dtype, int64_t *count) {
  const char *ts = type_to_string(type);
  int dims;
  Type *leaf = npy_leaf(type, &dims);   /* not NULL: value_read_npy checked */
  if (!h->have_descr || !h->have_fortran || !h->have_shape)
    return diag_error(LOC_NONE, "%s: '%s' has a .npy header without %s", R->what, R->path,
                      !h->have_descr ? "'descr'" : !h->have_fortran ? "'fortran_order'" : "'shape'");
  if (h->descr[0] == '>')
    return diag_error(LOC_NONE, "%s: '%s' is big-endian (dtype '%s'); only little-endian .npy "
                      "files are read (numpy: a.astype(a.dtype.newbyteorder('<')))",
                      R->what, R->path, h->descr);
  int found = -1;
  if (h->descr[0] == '<' || h->descr[0] == '|')
    for (int i = 0; i < NPY_NDTYPES; i++) if (strcmp(h->descr + 1, dtypes[i].descr) == 0) found = i;
  if (found < 0)
    return diag_error(LOC_NONE, "%s: '%s' has dtype '%s'; supported are float32, float64, int32, "
                      "int64 and bool", R->what, R->path, h->descr);
  int want = dtype_of_kind(leaf->kind);
  if (found != want)
    return diag_error(LOC_NONE, "%s: .npy has dtype %s but the parameter is %s (needs %s)",
                      R->what, dtypes[found].name, ts, dtypes[want].name);
  if (h->fortran)
    return diag_error(LOC_NONE, "%s: '%s' is in Fortran order; only C order is read "
                      "(numpy: np.ascontiguousarray)", R->what, R->path);
  if (h->ndim != dims)
    return diag_error(LOC_NONE, "%s: .npy has %d dimension%s, shape %s, but the parameter %s needs %d%s",
                      R->what, h->ndim, h->ndim == 1 ? "" : "s", shape_string(h->shape, h->ndim),
                      ts, dims, value_npy_packed(type) ? " (a position-dependent array is stored packed: "
                      "its elements row after row, 1-D)" : "");
  /* Element count, guarding overflow. With data the count is bounded by the file
     size (checked next); without (a zero dimension) the empty arrays before the
     zero still cost a node each, so a hostile shape (10^15, 0) is refused here. */
  int64_t n = 1, empty_nodes = 0;
  for (int i = 0; i < h->ndim; i++) {
    if (h->shape[i] && n > INT64_MAX / 8 / h->shape[i])
      return diag_error(LOC_NONE, "%s: .npy shape %s is too large", R->what,
                        shape_string(h->shape, h->ndim));
    n *= h->shape[i];
    if (n) empty_nodes += n;
  }
  if (n == 0 && empty_nodes > ((int64_t)1 << 24))
    return diag_error(LOC_NONE, "%s: .npy shape %s is too large for an empty array", R->what,
                      shape_string(h->shape, h->ndim));
  *dtype = found;
  *count = n;
  return true;
}

/* Vector lanes are the last dimension and their width is fixed by the type. */
static bool vector_check(Reader *R, Header *h, Type *type) {
  Type *t = type;
  while (t->kind == TY_ARRAY || t->kind == TY_EXISTS) t = t->kind == TY_EXISTS ? t->array : t->elem;
  if (t->kind != TY_VECTOR || h->shape[h->ndim - 1] == t->width) return true;
  return diag_error(LOC_NONE, "%s: .npy shape %s ends in %lld, but the parameter %s has %d-wide vectors",
                    R->what, shape_string(h->shape, h->ndim), (long long)h->shape[h->ndim - 1],
                    type_to_string(type), t->width);
}

static Value *npy_decode(Reader *R, const unsigned char *buf, size_t len, Type *type) {
  static const char magic[] = "\x93NUMPY";
  if (len < 10 || memcmp(buf, magic, 6) != 0) {
    diag_error(LOC_NONE, "%s: '%s' is not a .npy file (no \\x93NUMPY magic)", R->what, R->path);
    return NULL;
  }
  int major = buf[6];
  if (major < 1 || major > 3) {
    diag_error(LOC_NONE, "%s: '%s' has .npy format version %d.%d; versions 1.0 to 3.0 are read",
               R->what, R->path, major, buf[7]);
    return NULL;
  }
  size_t pre = major == 1 ? 10 : 12;
  size_t hlen = len < pre ? 0 : (size_t)load_le(buf + 8, major == 1 ? 2 : 4);
  if (len < pre || hlen > len - pre) {
    diag_error(LOC_NONE, "%s: '%s' is truncated inside its .npy header", R->what, R->path);
    return NULL;
  }
  Header h = {0};
  R->p = (const char *)buf + pre;
  R->end = R->p + hlen;
  if (!header_parse(R, &h)) {
    diag_error(LOC_NONE, "%s: '%s' has a malformed .npy header near byte %ld", R->what, R->path,
               (long)((const unsigned char *)R->p - buf));
    return NULL;
  }
  int dtype = 0;
  int64_t count = 0;
  if (!header_check(R, &h, type, &dtype, &count) || (h.ndim && !vector_check(R, &h, type)))
    return NULL;
  size_t have = len - pre - hlen, need = (size_t)count * (size_t)dtypes[dtype].size;
  if (have != need) {
    diag_error(LOC_NONE, "%s: '%s' has %zu bytes of data, but shape %s of %s needs %zu%s",
               R->what, R->path, have, shape_string(h.shape, h.ndim), dtypes[dtype].name, need,
               have < need ? " (truncated file)" : "");
    return NULL;
  }
  int dims;
  Type *leaf = npy_leaf(type, &dims);
  Type *t = type;
  while (t->kind == TY_ARRAY || t->kind == TY_EXISTS) t = t->kind == TY_EXISTS ? t->array : t->elem;
  if (h.ndim > 0 && t->kind != TY_VECTOR)   /* the file's data is the flat array's */
    return flat_in_place((unsigned char *)buf + pre + hlen, leaf->kind, dtypes[dtype].size, &h, count);
  Builder B = { buf + pre + hlen, leaf->kind, dtypes[dtype].size, t->kind == TY_VECTOR,
                NEW_ARRAY(Value, count), 0 };
  return build(&B, h.shape, h.ndim);
}

Value *value_read_npy(const char *path, Type *type, const char *what) {
  Reader R = { NULL, NULL, what ? what : "input", path };
  int dims;
  if (!npy_leaf(type, &dims)) {   /* the type's fault, whatever the file holds */
    diag_error(LOC_NONE, "%s: a .npy file holds regular arrays of scalars (or a position-dependent "
               "array of scalars, packed), but the parameter is %s", R.what, type_to_string(type));
    return NULL;
  }
  size_t len;
  char *data = util_read_file(path, &len);
  if (!data) {   /* "cannot open 'x.npy': reason", named after the input */
    const char *why = arena_strdup(diag_message());
    diag_clear();
    diag_error(LOC_NONE, "%s: %s", R.what, why);
    return NULL;
  }
  return npy_decode(&R, (const unsigned char *)data, len, type);
}

/* ---- writing ---- */

/* The shape of a value, taken along its first elements; npy_flatten then checks
   every other element agrees (a ragged value cannot be written). */
static void npy_shape(Value *v, int dims, int64_t *shape) {
  for (int i = 0; i < dims; i++) {
    bool aggregate = v && (v->kind == VAL_ARRAY || v->kind == VAL_VECTOR);
    shape[i] = aggregate ? v->n : 0;
    v = aggregate && v->n ? value_elem(v, 0) : NULL;
  }
}

typedef struct Flat { unsigned char *data; size_t at; ValueKind kind; int size; } Flat;

static bool npy_flatten(Value *v, const int64_t *shape, int dims, Flat *F) {
  if (dims == 0) {
    if (v->kind != F->kind) return false;
    if (!F->data) return true;                      /* the checking pass */
    uint64_t bits = 0;
    switch (v->kind) {
    case VAL_INT:    bits = (uint32_t)v->s.i; break;
    case VAL_LONG:   bits = (uint64_t)v->s.l; break;
    case VAL_FLOAT:  { uint32_t u; memcpy(&u, &v->s.f, 4); bits = u; break; }
    case VAL_DOUBLE: memcpy(&bits, &v->s.d, 8); break;
    default:         bits = v->s.b; break;
    }
    for (int i = 0; i < F->size; i++) F->data[F->at++] = (unsigned char)(bits >> (8 * i));
    return true;
  }
  if ((v->kind != VAL_ARRAY && v->kind != VAL_VECTOR) || v->n != shape[0]) return false;
  for (int64_t i = 0; i < v->n; i++) {
    Value tmp;
    if (!npy_flatten(value_elem_at(v, i, &tmp), shape + 1, dims - 1, F)) return false;
  }
  return true;
}

/* v1.0 header: magic, version, 2-byte length, the dict padded with spaces so the
   data starts at a multiple of 64 bytes, ending in '\n' (numpy's own layout). */
static void npy_header(Buf *out, const char *descr, const int64_t *shape, int dims) {
  Buf dict = {0};
  buf_printf(&dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr,
             shape_string(shape, dims));
  size_t total = 10 + dict.len + 1;
  size_t padded = (total + 63) / 64 * 64;
  size_t hlen = padded - 10;
  buf_puts(out, "\x93NUMPY");
  buf_putc(out, 1); buf_putc(out, 0);
  buf_putc(out, (char)(hlen & 0xff)); buf_putc(out, (char)(hlen >> 8));
  buf_puts(out, buf_str(&dict));
  for (size_t i = total; i < padded; i++) buf_putc(out, ' ');
  buf_putc(out, '\n');
}

/* The header, then the data (util_write_file: never half a file). */
static bool write_file(const char *path, Buf *header, Flat *F) {
  const void *parts[] = { header->data, F->data };
  size_t lens[] = { header->len, F->at };
  return util_write_file(path, 2, parts, lens);
}

/* A flat value whose own shape is the one to write (little-endian hosts: its
   buffer is the .npy data as it is). */
static bool flat_matches(Value *v, ValueKind kind, const int64_t *shape, int dims) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return false;
#endif
  if (!value_is_flat(v) || v->leaf != kind || v->rank != dims) return false;
  for (int i = 0; i < dims; i++) if (v->shape[i] != shape[i]) return false;
  return true;
}

/* A position-dependent value's scalars, row after row (SPEC §3.5: packed). */
static bool npy_pack(Value *v, Flat *F) {
  if (v->kind != VAL_ARRAY && !F->data) {   /* the counting pass: F->at counts scalars */
    F->at++;
    return v->kind == F->kind;
  }
  if (v->kind != VAL_ARRAY) return npy_flatten(v, NULL, 0, F);
  for (int64_t i = 0; i < v->n; i++) {
    Value tmp;
    if (!npy_pack(value_elem_at(v, i, &tmp), F)) return false;
  }
  return true;
}

static bool write_packed(const char *path, Value *v, Type *type, Type *leaf) {
  static const ValueKind kinds[] = { [TY_INT] = VAL_INT, [TY_LONG] = VAL_LONG,
    [TY_FLOAT] = VAL_FLOAT, [TY_DOUBLE] = VAL_DOUBLE, [TY_BOOL] = VAL_BOOL };
  int d = dtype_of_kind(leaf->kind);
  Flat F = { NULL, 0, kinds[leaf->kind], dtypes[d].size };
  if (!npy_pack(v, &F))   /* the counting pass */
    return diag_error(LOC_NONE, "cannot write %s as .npy: the value does not match the type", type_to_string(type));
  int64_t count = (int64_t)F.at;
  F.at = 0;
  if (!(F.data = arena_try_alloc((size_t)(count * dtypes[d].size) + 1)))
    return diag_error(LOC_NONE, "out of memory: cannot allocate %lld bytes to write '%s'",
                      (long long)(count * dtypes[d].size), path);
  npy_pack(v, &F);
  Buf header = {0};
  npy_header(&header, arena_printf("%c%s", leaf->kind == TY_BOOL ? '|' : '<', dtypes[d].descr), &count, 1);
  return write_file(path, &header, &F);
}

bool value_write_npy(const char *path, Value *v, Type *type) {
  int dims;
  Type *leaf = npy_leaf(type, &dims);
  if (leaf && value_npy_packed(type)) return write_packed(path, v, type, leaf);
  if (!leaf)
    return diag_error(LOC_NONE, "cannot write %s as .npy: only regular arrays of scalars (or vectors) can be written",
                      type_to_string(type));
  if (dims > NPY_MAX_DIMS)
    return diag_error(LOC_NONE, "cannot write %s as .npy: too many dimensions", type_to_string(type));
  int d = dtype_of_kind(leaf->kind);
  int64_t shape[NPY_MAX_DIMS];
  npy_shape(v, dims, shape);
  static const ValueKind kinds[] = { [TY_INT] = VAL_INT, [TY_LONG] = VAL_LONG,
    [TY_FLOAT] = VAL_FLOAT, [TY_DOUBLE] = VAL_DOUBLE, [TY_BOOL] = VAL_BOOL };
  /* Check regularity before allocating: a ragged value's first-element shape
     could promise far more data than it holds. */
  Flat F = { NULL, 0, kinds[leaf->kind], dtypes[d].size };
  Buf header = {0};
  const char *descr = arena_printf("%c%s", leaf->kind == TY_BOOL ? '|' : '<', dtypes[d].descr);
  if (flat_matches(v, F.kind, shape, dims)) {   /* written straight from its buffer */
    F.data = v->raw;
    F.at = (size_t)(v->n * value_flat_row_scalars(v)) * (size_t)F.size;
    npy_header(&header, descr, shape, dims);
    return write_file(path, &header, &F);
  }
  if (!npy_flatten(v, shape, dims, &F))
    return diag_error(LOC_NONE, "cannot write %s as .npy: the value is ragged (rows of "
                      "different lengths) or does not match the type", type_to_string(type));
  int64_t count = 1;                    /* regular, so these elements all exist */
  for (int i = 0; i < dims; i++) count *= shape[i];
  if (!(F.data = arena_try_alloc((size_t)(count * dtypes[d].size) + 1)))
    return diag_error(LOC_NONE, "out of memory: cannot allocate %lld bytes to write '%s'",
                      (long long)(count * dtypes[d].size), path);
  npy_flatten(v, shape, dims, &F);
  npy_header(&header, descr, shape, dims);
  return write_file(path, &header, &F);
}
