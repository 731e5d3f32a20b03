/* rules.h — the per-stage rules the primitive table points to. Each stage
   implements its own group (types/infer_*.c, eval/eval_*.c). */
#ifndef CLIFT_RULES_H
#define CLIFT_RULES_H
#include "prim.h"

/* type rules (src/types) */
Type *infer_map(InferCx *, Expr *);      Type *infer_reduce(InferCx *, Expr *);
Type *infer_scan(InferCx *, Expr *);     Type *infer_iterate(InferCx *, Expr *);
Type *infer_to(InferCx *, Expr *);       Type *infer_id(InferCx *, Expr *);
Type *infer_zip(InferCx *, Expr *);      Type *infer_unzip(InferCx *, Expr *);
Type *infer_get(InferCx *, Expr *);      Type *infer_tuple(InferCx *, Expr *);
Type *infer_split(InferCx *, Expr *);    Type *infer_join(InferCx *, Expr *);
Type *infer_transpose(InferCx *, Expr *);Type *infer_slide(InferCx *, Expr *);
Type *infer_pad(InferCx *, Expr *);      Type *infer_pad_constant(InferCx *, Expr *);
Type *infer_iota(InferCx *, Expr *);     Type *infer_aref(InferCx *, Expr *);
Type *infer_length(InferCx *, Expr *);   Type *infer_slice(InferCx *, Expr *);
Type *infer_as_vector(InferCx *, Expr *);Type *infer_as_scalar(InferCx *, Expr *);
Type *infer_arith(InferCx *, Expr *);    Type *infer_compare(InferCx *, Expr *);
Type *infer_logic(InferCx *, Expr *);    Type *infer_cast(InferCx *, Expr *);
Type *infer_math(InferCx *, Expr *);

/* interpreter rules (src/eval) */
Value *eval_map(Interp *, Expr *, Env *);      Value *eval_reduce(Interp *, Expr *, Env *);
Value *eval_scan(Interp *, Expr *, Env *);     Value *eval_iterate(Interp *, Expr *, Env *);
Value *eval_to(Interp *, Expr *, Env *);       Value *eval_id(Interp *, Expr *, Env *);
Value *eval_zip(Interp *, Expr *, Env *);      Value *eval_unzip(Interp *, Expr *, Env *);
Value *eval_get(Interp *, Expr *, Env *);      Value *eval_tuple(Interp *, Expr *, Env *);
Value *eval_split(Interp *, Expr *, Env *);    Value *eval_join(Interp *, Expr *, Env *);
Value *eval_transpose(Interp *, Expr *, Env *);Value *eval_slide(Interp *, Expr *, Env *);
Value *eval_pad(Interp *, Expr *, Env *);      Value *eval_pad_constant(Interp *, Expr *, Env *);
Value *eval_iota(Interp *, Expr *, Env *);     Value *eval_aref(Interp *, Expr *, Env *);
Value *eval_length(Interp *, Expr *, Env *);   Value *eval_slice(Interp *, Expr *, Env *);
Value *eval_as_vector(Interp *, Expr *, Env *);Value *eval_as_scalar(Interp *, Expr *, Env *);
Value *eval_scalar_op(Interp *, Expr *, Env *);

#endif
