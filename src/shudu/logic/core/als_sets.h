/*
 * What the almost-locked-set files share (als_sets.c lists the sets and their links, als.c finds
 * the solving path's first step over them, als_list.c writes the listings): a call's context,
 * the sets, their restricted commons.  Internal: the Python entry points are in als.h.
 */
#ifndef SHUDU_CORE_ALS_SETS_H
#define SHUDU_CORE_ALS_SETS_H

#include <Python.h>

#include <stdint.h>

#include "../../solvers/core/common.h"
#include "settle_tables.h"

typedef struct {
    cset cells;
    uint32_t digits;
    int house;
    cset holding[S_MAX_DIGITS], seeing[S_MAX_DIGITS];
} als_t;

/* A set's restricted commons: the sets it links to, in the order first met, and the digits. */
typedef struct {
    int32_t *to;
    uint32_t *rcc;
    int32_t count;
} links_t;

typedef struct {
    const tables_t *t;
    int n, nc;
    uint32_t cands[S_MAX_CELLS];
    cset where[S_MAX_DIGITS], empty;
    als_t *sets;
    int32_t nsets, cap;
    links_t *links;
    int32_t *lto;   /* every link's far set, one block */
    uint32_t *lrcc; /* and its digits */
    budget_t budget;
    uint64_t units;
    int spent;
    int overlap; /* links between sets that share cells too (never on the linking digit) */
    int uncounted; /* the sets listed without a unit each (a listing that has them already) */
} als_ctx;

/* (static: counted in the hot loops of every file, inlined in each) */
/* One unit of work; 0 once the budget is spent. */
static int unit(als_ctx *g)
{
    if (g->spent || budget_spent(&g->budget, g->units)) {
        g->spent = 1;
        return 0;
    }
    g->units++;
    return 1;
}

/* Every set of up to most cells, house by house (a unit each unless g->uncounted): 0, or -1 out
 * of memory. */
SHUDU_HIDDEN int als_list_sets(als_ctx *g, int most);
/* Every set's restricted commons (g->links), a unit a set: 0, or -1 out of memory. */
SHUDU_HIDDEN int als_list_links(als_ctx *g);
SHUDU_HIDDEN void als_free_ctx(als_ctx *g);
/* The context of a call of an entry point, (tables, cands, where, empty, max_cells, mode,
 * seconds, nodes) with mode in 0 … modes - 1; NULL with an exception set. */
SHUDU_HIDDEN als_ctx *als_read_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                                    int modes, int *most, int *mode);
/* [(cell, digit)] of the cells per digit index, for the digits in the mask: by digit, then cell. */
SHUDU_HIDDEN PyObject *als_cell_digit_list(const cset *per_digit, uint32_t digits);
/* qsort's order of set numbers (int32). */
SHUDU_HIDDEN int als_by_set(const void *p, const void *q);

#endif
