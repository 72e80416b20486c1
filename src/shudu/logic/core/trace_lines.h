/*
 * What trace.c (the rounds of a traced branch) and trace_result.c (its lines written out)
 * share: a trace's lines and state, and the outcomes of its steps.  Internal: the Python entry
 * point is declared in trace.h.
 */
#ifndef SHUDU_CORE_TRACE_LINES_H
#define SHUDU_CORE_TRACE_LINES_H

#include <Python.h>

#include <stdint.h>

#include "settle_tables.h"

/* A line's rule, as implications.LINE_KINDS names them. */
enum { K_ASSUMPTION, K_NAKED, K_HIDDEN, K_SEES, K_LOCKED, K_PAIR, K_RULE };

typedef struct {
    int cell, digit, on, kind, rule, house;
    cset cells;       /* K_SEES: the placements it sees; K_PAIR: the pair */
    size_t first;     /* its causes: pool[first : first + count], ascending */
    int count;
} line_t;

/* A reason offered for a single this round: kind K_NAKED or K_HIDDEN (in house), the lines it
 * needs. */
typedef struct {
    int digit, kind, house, size;
} offer_t;

typedef struct {
    settle_state_t s;          /* the grid as the assumption changes it */
    uint32_t bcands[S_MAX_CELLS];
    cset bwhere[S_MAX_DIGITS]; /* the grid before it */
    int n, nc, words, cap;
    line_t *lines;
    int nlines;
    int *pool;
    size_t npool, pool_cap;
    uint64_t *needs;  /* per line, the lines it needs (itself included): cap rows of words */
    uint64_t *scratch;
    int *gone;        /* per candidate (cell * n + digit index): the line that removed it */
    int placed[S_MAX_CELLS];
    /* this round's offers: the cells in the order first offered, each cell's reasons in the
     * order their digits were first offered */
    int ocells[S_MAX_CELLS], nocells;
    int held[S_MAX_CELLS];
    offer_t offers[S_MAX_CELLS][S_MAX_DIGITS];
    /* the contradiction: kind 0 (cell a without candidates), 1 (digit index a without a place
     * in house b); causes pool[bfirst : bfirst + bcount] */
    int broken, bkind, ba, bb, bcount;
    size_t bfirst;
    int inner_calls;
} trace_t;

/* What a round of singles or a rule's step did: TRACE_NOMEM out of memory, TRACE_NONE nothing
 * (none found, or the grid broke: trace_t.broken), TRACE_DONE a round placed or a step's
 * eliminations made, TRACE_STOPPED (a step) the inner searches ran past the limits. */
enum { TRACE_NOMEM = -1, TRACE_NONE = 0, TRACE_DONE = 1, TRACE_STOPPED = 2 };

/* The result of trace() (trace.h) for tr, code S_SETTLED, S_BROKEN or S_STOPPED; NULL with an
 * exception set. */
SHUDU_HIDDEN PyObject *trace_result(trace_t *tr, int code, long long settles, int keep);

#endif
