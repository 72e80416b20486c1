/*
 * The general engine: any list of n-cell houses plus links, n = 4..25.  Candidates are a
 * bit mask per cell; propagation is naked and hidden singles, then the intersection rule
 * over every pair of houses sharing two cells or more.
 * shudu/solvers/_fast_py.py states the same algorithm in Python.
 */
#ifndef SHUDU_CORE_GENERAL_H
#define SHUDU_CORE_GENERAL_H

#include "common.h"

/* The frame stack of a search; frames are variable-sized (their candidates and values
 * follow a small header) and the stack grows on demand. */
typedef struct {
    const shape_t *sh;
    size_t fsize;
    char *frames;
    int cap;
    int16_t *queue;  /* naked singles waiting to be placed */
    int qn;
    /* Which houses changed: house_bits[c] has bit h for each house h < 64 holding cell c
     * (every bit when the shape has more houses), lock_bits[k] those of pair k's two
     * houses.  A cell whose candidates change adds its bits to `rescan` (the houses whose
     * hidden singles need a look) and `relock` (those whose intersections do). */
    uint64_t *house_bits;
    uint64_t *lock_bits;
    /* the other way round: for house h < 64, the pairs k with bit h in lock_bits[k], as
     * lock_words words of bits (NULL when the shape has more houses or more pairs than
     * G_LOCK_WORDS words hold: every pair's bits are then tested in turn) */
    uint64_t *house_locks;
    int lock_words;
    uint64_t rescan, relock;
    uint64_t *peer_bits;  /* 9x9 only: each cell's peers, cells 0-63 and 64-80 (two words) */
    uint64_t *house_bits9;  /* 9x9 only: each house's cells, the same way */
} general_state_t;

SHUDU_HIDDEN extern const engine_t shudu_engine_general;

#endif
