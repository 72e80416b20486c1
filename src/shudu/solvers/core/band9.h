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

/* The frame stack: the root and one frame per guess, each on a distinct empty cell. */
typedef struct {
    band9_frame_t stack[82];
} band9_state_t;

SHUDU_HIDDEN extern const engine_t shudu_engine_9x9;

/* The candidates (bit d - 1 for digit d) of each of the 81 cells once the givens are
 * placed and the 9x9 engine's propagation is done; 0 when it finds a contradiction.
 * For tests: the search itself never calls it. */
SHUDU_HIDDEN int shudu_propagate9(const uint8_t *givens, mask_t out[81]);

/* The band tables (core/band_tables.h) as the engine compiled them, for tests. */
SHUDU_HIDDEN extern const uint32_t *const shudu_band_keep;        /* 512 entries */
SHUDU_HIDDEN extern const uint32_t *const shudu_triad_keep;       /* 512 entries */
SHUDU_HIDDEN extern const uint32_t *const shudu_row_box_others;   /* 27 entries */

#endif
