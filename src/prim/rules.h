/* rules.h — the per-stage rules the primitive table points to. Each stage
   implements its own group (types/infer_*.c, eval/eval_*.c, dpia/rules_*.c);
   here the table meets the AST the rules read. */
#ifndef CLIFT_RULES_H
#define CLIFT_RULES_H
#include "prim.h"
#include "../syntax/ast.h"

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
Type *infer_math(InferCx *, Expr *);    Type *infer_filter(InferCx *, Expr *);
Type *infer_while(InferCx *, Expr *);    Type *infer_partition(InferCx *, Expr *);
Type *infer_special(InferCx *, Expr *);  Type *infer_bits(InferCx *, Expr *);
Type *infer_check_length(InferCx *, Expr *);

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
Value *eval_scalar_op(Interp *, Expr *, Env *);Value *eval_filter(Interp *, Expr *, Env *);
Value *eval_while(Interp *, Expr *, Env *);    Value *eval_partition(Interp *, Expr *, Env *);

/* DPIA rules (src/dpia): acceptor-passing A and continuation-passing C */
bool acc_map(Tr *, Expr *, Acc *);       bool acc_scan(Tr *, Expr *, Acc *);
bool acc_to(Tr *, Expr *, Acc *);        bool acc_iterate(Tr *, Expr *, Acc *);
bool acc_zip(Tr *, Expr *, Acc *);       bool acc_tuple(Tr *, Expr *, Acc *);
bool acc_pad_constant(Tr *, Expr *, Acc *);
bool acc_layout(Tr *, Expr *, Acc *);    bool acc_filter(Tr *, Expr *, Acc *);    /* a layout with an inverse: its argument through dpia_inv */
View *exp_map_lazy(Tr *, Expr *);        View *exp_reduce(Tr *, Expr *);
View *exp_to(Tr *, Expr *);              View *exp_id(Tr *, Expr *);
View *exp_zip(Tr *, Expr *);             View *exp_unzip(Tr *, Expr *);
View *exp_get(Tr *, Expr *);             View *exp_tuple(Tr *, Expr *);
View *exp_split(Tr *, Expr *);           View *exp_join(Tr *, Expr *);
View *exp_transpose(Tr *, Expr *);       View *exp_partition(Tr *, Expr *);       View *exp_slide(Tr *, Expr *);
View *exp_pad(Tr *, Expr *);             View *exp_pad_constant(Tr *, Expr *);
View *exp_iota(Tr *, Expr *);            View *exp_aref(Tr *, Expr *);
View *exp_length(Tr *, Expr *);          View *exp_slice(Tr *, Expr *);
View *exp_as_vector(Tr *, Expr *);       View *exp_as_scalar(Tr *, Expr *);
View *exp_scalar_op(Tr *, Expr *);       View *exp_while(Tr *, Expr *);
/* the acceptor of the inverse layout (mapAcc) */
Acc *inv_split(Expr *, Acc *);           Acc *inv_join(Expr *, Acc *);
Acc *inv_transpose(Expr *, Acc *);       Acc *inv_as_vector(Expr *, Acc *);
Acc *inv_as_scalar(Expr *, Acc *);       Acc *inv_map(Expr *, Acc *);

#endif
