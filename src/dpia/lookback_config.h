/* lookback_config.h — the one pass's experiment switches (lookback_config.c
   lists them; bench/gpu/scan_2027.sh measures them). */
#ifndef CLIFT_LOOKBACK_CONFIG_H
#define CLIFT_LOOKBACK_CONFIG_H
#include <stdbool.h>
#include "../util/switches.h"   /* CLIFT_LB_ITEMS */

typedef struct LbConfig {
  bool read;
  int group, items, tile;
  bool totals, block_tile, loops;
  int mask, direct;   /* -1: the target's default (lb_mask_for, lb_direct_for) */
  int min_blocks;
  int wait, retry;   /* ns */
} LbConfig;
extern LbConfig lb_cfg;
#define LB_GROUP (lb_cfg.group)
#define LB_ITEMS (lb_cfg.items)
#define LB_TILE (lb_cfg.tile)
void lb_configure(void);   /* reads the environment once */
/* The switches whose default depends on the target (-1: unset): on for cuda (gen
   says the target has warp shuffles), off elsewhere. */
struct GenOptions;
bool lb_mask_for(const struct GenOptions *gen);
int lb_direct_for(const struct GenOptions *gen);

#endif
