/*
 * The 9x9 engine: the standard 9x9 grid, candidates kept per digit and band (three rows,
 * 27 bits), so that hidden singles and locked candidates inside a band are a few
 * word-wide operations and a table lookup.
 * shudu/solvers/_band9_py.py states its propagation in Python.
 */
#ifndef SHUDU_CORE_BAND9_H
#define SHUDU_CORE_BAND9_H

#include "common.h"

typedef struct {
    /* 28 words each (the last one 0 in both) for whole 16-byte vectors */
    uint32_t cand[28];      /* per digit d and band b, at 3 * d + b */
    uint32_t seen[28];      /* cand[i] as the band rule last left it */
    uint32_t unsolved[3];   /* cells without a value, per band */
    int32_t cell;           /* branch cell, 0..80 */
    mask_t rem;             /* its digits not tried yet */
} band9_frame_t;

/* The houses a 9x9 shape has beyond the 27 standard ones (diagonals, windows, pyramids
 * ...), as masks in the engine's band words: mask[b] holds the cells of band b, bit
 * 9 * row + column.  A shape with at most B9X_HOUSES distinct such houses and no links
 * runs the 9x9 engine with them (shudu_engine_9x9x). */
#define B9X_HOUSES 16
/* A house of 9 cells meets at most 4 of the 9 rows (or columns, or boxes) in two cells or
 * more, and each other extra house: at most 16 * 12 + 16 * 15 / 2 pairs. */
#define B9X_LOCKS 312
typedef struct {
    uint32_t w[4];  /* three band words and a pad */
} band9_mask_t;

typedef struct band9_extra {
    int nhouses, nlocks;
    band9_mask_t house[B9X_HOUSES];
    band9_mask_t peers[81];  /* cells sharing an extra house with the cell, not itself */
    band9_mask_t far[81];    /* of those, the ones outside its row, column and box */
    /* the intersections with an extra house: pairs of houses, at least one extra, sharing
     * two to eight cells: the shared cells, the first house's others and the second's */
    band9_mask_t lock[B9X_LOCKS][3];
} band9_extra_t;

/* The frame stack: the root and one frame per guess, each on a distinct empty cell. */
typedef struct {
    band9_frame_t stack[82];
    const band9_extra_t *x;  /* the extra houses; NULL on the standard grid */
} band9_state_t;

SHUDU_HIDDEN extern const engine_t shudu_engine_9x9;
SHUDU_HIDDEN extern const engine_t shudu_engine_9x9x;

/* Sets sh->b9x (malloc'd: the shape frees it) when the 9x9 engine can serve the shape
 * with extra houses: 9x9, `links` false, the 27 standard houses among its houses, and at
 * most B9X_HOUSES others (repeats counted once).  Leaves it NULL otherwise.  -1 when out
 * of memory. */
SHUDU_HIDDEN int shudu_band9_extras(shape_t *sh, int links);

/* Which of the 27 standard houses of 9x9 the 9 distinct cells are: rows 0..8, columns
 * 9..17, boxes 18..26; -1 for none. */
SHUDU_HIDDEN int shudu_standard_house9(const int16_t *cells);

/* The candidates (bit d - 1 for digit d) of each of the 81 cells once the givens are
 * placed and the 9x9 engine's propagation is done; 0 when it finds a contradiction.
 * For tests: the search itself never calls it. */
SHUDU_HIDDEN int shudu_propagate9(const uint8_t *givens, mask_t out[81]);

/* The band tables (core/band_tables.h) as the engine compiled them, for tests. */
SHUDU_HIDDEN extern const uint32_t *const shudu_band_keep;        /* 512 entries */
SHUDU_HIDDEN extern const uint32_t *const shudu_triad_keep;       /* 512 entries */
SHUDU_HIDDEN extern const uint32_t *const shudu_row_box_others;   /* 27 entries */

#endif
