/* file.c — the one way clift writes a file (`-o out.npy`, `clift compile -o
   DIR`, cached objects): through a temporary beside it and a rename, so that
   no reader ever sees half of it; errors name the path as the user gave it,
   never the temporary. */
#include "util.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>

bool util_write_file(const char *path, int nparts, const void *const *parts, const size_t *lens) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return diag_error(LOC_NONE, "cannot write '%s': it is a directory", path);
  const char *tmp = arena_printf("%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) return diag_error(LOC_NONE, "cannot write '%s': %s", path, strerror(errno));
  bool ok = true;
  for (int i = 0; i < nparts && ok; i++) ok = lens[i] == 0 || fwrite(parts[i], 1, lens[i], f) == lens[i];
  int err = ok ? 0 : errno;
  ok = (fclose(f) == 0) && ok;
  if (ok && rename(tmp, path) == 0) return true;
  if (!err) err = errno;
  remove(tmp);
  return err ? diag_error(LOC_NONE, "cannot write '%s': %s", path, strerror(err))
             : diag_error(LOC_NONE, "cannot write '%s'", path);
}

bool util_write_text(const char *path, const char *text) {
  const void *parts[] = { text };
  size_t lens[] = { strlen(text) };
  return util_write_file(path, 1, parts, lens);
}

/* mkdir -p; 0 or the errno of the mkdir that failed. */
int util_make_dirs_errno(const char *path) {
  char *p = arena_strdup(path);
  for (char *s = p + 1;; s++) {
    if (*s != '/' && *s) continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0755) != 0 && errno != EEXIST) return errno;
    if (!(*s = c)) return 0;
  }
}

bool util_make_dirs(const char *path) {
  if (!*path) return diag_error(LOC_NONE, "cannot create a directory with an empty name");
  int err = util_make_dirs_errno(path);
  if (err) return diag_error(LOC_NONE, "cannot create directory '%s': %s", path, strerror(err));
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
    return diag_error(LOC_NONE, "cannot create directory '%s': a file of that name exists", path);
  return true;
}

const char *util_path_in(const char *dir, const char *file) {
  size_t n = strlen(dir);
  return arena_printf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", file);
}

const char *util_cache_dir(void) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  const char *dir = xdg && *xdg ? arena_printf("%s/clift", xdg)
                  : home && *home ? arena_printf("%s/.cache/clift", home) : NULL;
  if (dir && util_make_dirs_errno(dir) == 0) return dir;   /* else /tmp, silently */
  /* /tmp is shared: the directory must be ours and closed to others, or anyone
     could plant a shared object there that we would load */
  dir = arena_printf("/tmp/clift-%ld", (long)getuid());
  struct stat st;
  if (mkdir(dir, 0700) != 0 && errno != EEXIST)
    return diag_error(LOC_NONE, "cannot create directory '%s': %s", dir, strerror(errno)), NULL;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 022))
    return diag_error(LOC_NONE, "'%s' is not a private directory of this user", dir), NULL;
  return dir;
}

const char *util_cache_file(unsigned long long key, const char *ext) {
  const char *dir = util_cache_dir();
  if (!dir) { diag_clear(); return NULL; }
  return arena_printf("%s/%016llx.%s", dir, key, ext);
}

unsigned long long util_fnv1a(unsigned long long h, const char *s) {
  size_t n = strlen(s) + 1;
  for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 0x100000001b3ull; }
  return h;
}
