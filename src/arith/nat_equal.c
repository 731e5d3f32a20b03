/* nat_equal.c — SPEC §3.1 equality: equal canonical forms, else agreement at many
   points inside the variables' ranges. Points are drawn from a PRNG seeded afresh
   on every call, so the answer is a pure function of the two expressions. */
#include "nat_internal.h"

enum { SAMPLE_POINTS = 200, SAMPLE_TRIES = 1000 };

/* splitmix64: tiny, good enough, and ours (rand() is global state). */
static unsigned long long next_random(unsigned long long *s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

typedef struct Point { NatVar **vars; long long *vals; int n, cap, set; } Point;

static bool point_lookup(void *ctx, NatVar *v, long long *out) {
  Point *p = ctx;
  for (int i = 0; i < p->set; i++)
    if (p->vars[i] == v) { *out = p->vals[i]; return true; }
  return false;
}

static void add_var(Point *p, NatVar *v) {
  for (int i = 0; i < p->n; i++) if (p->vars[i] == v) return;
  ARENA_PUSH(p->vars, p->n, p->cap, v);
}

static void add_free_vars(Point *p, Nat *e) {
  int n;
  NatVar **vs = nat_free_var_list(e, &n);
  for (int i = 0; i < n; i++) add_var(p, vs[i]);
}

static bool range_ready(Point *p, int placed, NatVar *v) {
  Nat *ends[2] = { v->lo, v->hi };
  for (int e = 0; e < 2; e++) {
    if (!ends[e]) continue;
    int n;
    NatVar **vs = nat_free_var_list(ends[e], &n);
    for (int i = 0; i < n; i++) {
      bool found = false;
      for (int j = 0; j < placed; j++) found |= p->vars[j] == vs[i];
      if (!found) return false;
    }
  }
  return true;
}

/* Variables whose ranges mention others (i in [0, n-1]) come after those others;
   the variables of ranges are sampled too, even if a and b do not mention them. */
static void order_vars(Point *p, Nat *a, Nat *b) {
  add_free_vars(p, a);
  add_free_vars(p, b);
  for (int i = 0; i < p->n; i++) {
    add_free_vars(p, p->vars[i]->lo);
    if (p->vars[i]->hi) add_free_vars(p, p->vars[i]->hi);
  }
  for (int placed = 0; placed < p->n; placed++) {
    int pick = placed;   /* a cycle of ranges: take the next one as it is */
    for (int i = placed; i < p->n; i++)
      if (range_ready(p, placed, p->vars[i])) { pick = i; break; }
    NatVar *t = p->vars[placed];
    p->vars[placed] = p->vars[pick];
    p->vars[pick] = t;
  }
}

/* The first points put every variable at lo, lo+1, then its top; after that each
   variable picks its own kind of value (an edge, or uniform on a span of a random
   size), so combinations such as "j at its top, N at its bottom" turn up too. */
static bool choose_point(Point *p, int sample, unsigned long long *seed) {
  static const long long spans[] = { 3, 6, 12, 30, 100, 1000 };
  for (p->set = 0; p->set < p->n; p->set++) {
    NatVar *v = p->vars[p->set];
    long long lo = 0, hi;
    nat_eval(v->lo, point_lookup, p, &lo);
    bool bounded = v->hi && nat_eval(v->hi, point_lookup, p, &hi);
    if (bounded && hi < lo) return false;   /* empty range: no point here */
    long long span = spans[next_random(seed) % 6];
    long long top = bounded && hi - lo < span ? hi : lo + span;
    int mode = sample < 3 ? sample : 3 + (int)(next_random(seed) % 20);
    long long val = mode == 0 || mode == 3 || mode == 4 ? lo
                  : mode == 1 || mode == 5 ? (lo + 1 <= top ? lo + 1 : lo)
                  : mode == 2 || mode == 6 || mode == 7 ? top
                  : lo + (long long)(next_random(seed) % (unsigned long long)(top - lo + 1));
    p->vals[p->set] = val;
  }
  return true;
}

static unsigned long long point_hash(const Point *p) {
  unsigned long long h = 0xcbf29ce484222325ull;
  for (int i = 0; i < p->n; i++) h = (h ^ (unsigned long long)p->vals[i]) * 0x100000001b3ull;
  return h;
}

bool nat_equal(Nat *a, Nat *b) {
  if (nat_same(a, b)) return true;
  Nat *sa = nat_simplify(a), *sb = nat_simplify(b);
  if (nat_same(sa, sb)) return true;
  Point p = { .n = 0 };
  order_vars(&p, sa, sb);
  p.vals = NEW_ARRAY(long long, p.n);
  unsigned long long seed = 0x5eed0fc11f7ull, seen[SAMPLE_POINTS];
  int agreed = 0, distinct = 0;
  /* up to SAMPLE_POINTS distinct points; small ranges may have fewer */
  for (int s = 0; s < SAMPLE_TRIES && distinct < SAMPLE_POINTS; s++) {
    long long x, y;
    if (!choose_point(&p, s, &seed)) continue;
    unsigned long long h = point_hash(&p);
    bool dup = false;
    for (int i = 0; i < distinct && !dup; i++) dup = seen[i] == h;
    if (dup) continue;
    seen[distinct++] = h;
    /* a point where either side is undefined (or overflows) says nothing */
    if (!nat_eval(sa, point_lookup, &p, &x) || !nat_eval(sb, point_lookup, &p, &y)) continue;
    if (x != y) return false;
    agreed++;
  }
  return agreed > 0;
}
