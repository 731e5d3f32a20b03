/* map.c — the one hash map of the compiler (util.h UtilMap): keys are pointers
   (compared as such) or strings (compared by content), values pointers, open
   addressing at most half full, in the arena. */
#include "util.h"
#include <stdint.h>
#include <string.h>

static unsigned long long key_hash(const void *key, bool str) {
  return str ? util_fnv1a(UTIL_FNV_BASIS, key) : (unsigned long long)(uintptr_t)key * 11400714819323198485ull;
}

static int slot(const UtilMap *m, const void *key, bool str) {
  unsigned long long i = key_hash(key, str) & (unsigned long long)(m->cap - 1);
  while (m->keys[i] && !(m->strs[i] == str && (str ? strcmp(m->keys[i], key) == 0 : m->keys[i] == key)))
    i = (i + 1) & (unsigned long long)(m->cap - 1);
  return (int)i;
}

void *util_map_get(const UtilMap *m, const void *key, bool str) {
  if (!m->cap) return NULL;
  int i = slot(m, key, str);
  return m->keys[i] ? m->vals[i] : NULL;
}

void util_map_put(UtilMap *m, const void *key, bool str, void *val) {
  if (2 * (m->n + 1) > m->cap) {   /* grown at half full: twice the slots, every entry again */
    int cap = m->cap ? 2 * m->cap : 64;
    UtilMap g = { NEW_ARRAY(const void *, cap), NEW_ARRAY(void *, cap), NEW_ARRAY(bool, cap), 0, cap };
    for (int i = 0; i < m->cap; i++) if (m->keys[i]) util_map_put(&g, m->keys[i], m->strs[i], m->vals[i]);
    *m = g;
  }
  int i = slot(m, key, str);
  if (!m->keys[i]) { m->keys[i] = key; m->strs[i] = str; m->n++; }
  m->vals[i] = val;
}
