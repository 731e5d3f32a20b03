/* nat_select.c — min, max and `if a < b`: each resolves when range analysis decides
   it (SPEC §3.1: "used to drop bounds checks and conditionals"); otherwise it stays
   an atom, with min/max arguments in a fixed order since they commute. */
#include "nat_internal.h"

static Nat *ordered(NatKind kind, Nat *a, Nat *b) {
  return nat_cmp(a, b) <= 0 ? nat_node2(kind, a, b) : nat_node2(kind, b, a);
}

Nat *nat_min(Nat *a, Nat *b) {
  long long x, y;
  if (nat_is_const(a, &x) && nat_is_const(b, &y)) return nat_const(x < y ? x : y);
  if (nat_same(a, b) || nat_proves_le(a, b)) return a;
  if (nat_proves_le(b, a)) return b;
  return ordered(NAT_MIN, a, b);
}

Nat *nat_max(Nat *a, Nat *b) {
  long long x, y;
  if (nat_is_const(a, &x) && nat_is_const(b, &y)) return nat_const(x > y ? x : y);
  if (nat_same(a, b) || nat_proves_le(a, b)) return b;
  if (nat_proves_le(b, a)) return a;
  return ordered(NAT_MAX, a, b);
}

Nat *nat_if_lt(Nat *a, Nat *b, Nat *t, Nat *e) {
  if (nat_proves_lt(a, b)) return t;
  if (nat_proves_le(b, a)) return e;
  if (nat_same(t, e)) return t;
  Nat *args[4] = { a, b, t, e };
  return nat_node(NAT_IF, 4, args);
}
