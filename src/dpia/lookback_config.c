/* lookback_config.c — the one pass's experiment switches (lookback.c), read
   (util/switches.c, their table) once, when the first one pass is generated. */
#include "lookback_config.h"
#include "kernel.h"   /* GenOptions */
#include "../util/switches.h"

/* Experiments without rebuilding clift (issue 11, bench/gpu/scan_2027.sh): the
   environment of the clift that generates the code may set
     CLIFT_LB_GROUP=64|128|256   work-items a group (default 256; a power of
                                 two of warps of 32);
     CLIFT_LB_ITEMS=1…32         elements a work-item (default CLIFT_LB_ITEMS);
   Defaults (since stop 27): the variant `all` of scan_2027.sh, the fastest on
   an H100 (2026-11-27, 2^27: filter 1.19x CUB, 1% filter 1.29x, scan 1.12x;
   the former default, loops alone, 1.41x / 1.57x / 1.27x; results in
   bench/gpu/results/2026-11-27e-scan/): TOTALS=1 MASK=1 MIN_BLOCKS=6
   DIRECT=256 WAIT=1140 RETRY=688; BLOCK_TILE stays off (slower there, and it
   relies on the order groups start in). 0 turns a switch off. MASK and DIRECT,
   which change opencl's code too, are on by default on cuda only: NVIDIA's
   OpenCL ran the filter 1.10x slower with them (compare_2027.sh, 2026-11-27,
   0.631 against 0.576 ms at 2^27; results/2026-11-27e-compare/).
     CLIFT_LB_TOTALS=1           cuda (the warp-shuffle scan): every work-item
                                 combines the warps' totals before its own, no
                                 work-item scans them: 6 barriers a tile, not 8;
     CLIFT_LB_MASK=1             filter: which of its elements the predicate
                                 keeps, a bit each in a register of the work-item,
                                 so that the compaction reads only those;
     CLIFT_LB_BLOCK_TILE=1       cuda: the tile is the group's index where the
                                 groups cover the tiles, no counter (as CUB:
                                 it relies on groups starting in index order);
     CLIFT_LB_MIN_BLOCKS=m       cuda: __launch_bounds__(group, m) on the pass;
     CLIFT_LB_DIRECT=k           filter: a tile that keeps at most k elements
                                 has every work-item write its own straight out
                                 (no second local tile, one barrier less; CUB
                                 does so up to a group's size of them);
     CLIFT_LB_WAIT=ns, CLIFT_LB_RETRY=ns
                                 cuda (the warp's look-back): where the grid has
                                 500 tiles or more, its warp sleeps ns after
                                 publishing the aggregate, before the first read,
                                 and ns before reading again from a word not yet
                                 published, instead of spinning on it (as CUB's
                                 delays, 1140 and 688 ns for sm_90 float sums);
     CLIFT_LB_LOOPS=1 (default)  the pass's mapLcl loops printed as loops striding
                                 by the group's size, as before 73f6a3f (which
                                 printed a pinned group's loops as blocks: NVRTC
                                 then gives the pass 99-110 registers, not 40;
                                 CLIFT_LB_LOOPS=0 gives those blocks back).
   Their names, defaults and ranges: util/switches.c; a value out of its range
   is warned about and gives the default. */
LbConfig lb_cfg;

void lb_configure(void) {
  if (lb_cfg.read) return;
  lb_cfg = (LbConfig){ .read = true, .group = switch_value(SW_LB_GROUP), .items = switch_value(SW_LB_ITEMS),
                       .totals = switch_value(SW_LB_TOTALS), .mask = switch_value(SW_LB_MASK),
                       .block_tile = switch_value(SW_LB_BLOCK_TILE), .loops = switch_value(SW_LB_LOOPS),
                       .direct = switch_value(SW_LB_DIRECT), .wait = switch_value(SW_LB_WAIT),
                       .retry = switch_value(SW_LB_RETRY), .min_blocks = switch_value(SW_LB_MIN_BLOCKS) };
  lb_cfg.tile = lb_cfg.group * lb_cfg.items;
}

/* MASK and DIRECT unset: on (1, 256) for cuda (the target with warp shuffles), off elsewhere */
static bool lb_cuda(const GenOptions *gen) { return gen && gen->warp_shuffle; }
bool lb_mask_for(const GenOptions *gen) { return lb_cfg.mask >= 0 ? lb_cfg.mask : lb_cuda(gen); }
int lb_direct_for(const GenOptions *gen) { return lb_cfg.direct >= 0 ? lb_cfg.direct : lb_cuda(gen) ? 256 : 0; }
