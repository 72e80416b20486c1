/*
 * What the logic engine's C loops share (settle.c, direct.c, forcing.c): cell sets of up to 128
 * cells as two 64-bit words, a geometry's tables, built once by settle_tables and kept in a
 * capsule, and the settle loop with its state (forcing.c runs it once per assumption).
 * Include after <Python.h>.
 */
#ifndef SHUDU_CORE_SETTLE_TABLES_H
#define SHUDU_CORE_SETTLE_TABLES_H

#include <Python.h>

#include <stdint.h>

#include "../../solvers/core/common.h"

#define S_MAX_CELLS 128
#define S_MAX_HOUSES 64
#define S_MAX_DIGITS 16
#define S_MAX_CELL_HOUSES 16
#define S_CAPSULE "shudu.settle_tables"

typedef struct {
    uint64_t lo, hi;
} cset;

static inline cset cs_and(cset a, cset b) { return (cset){a.lo & b.lo, a.hi & b.hi}; }
static inline cset cs_or(cset a, cset b) { return (cset){a.lo | b.lo, a.hi | b.hi}; }
static inline cset cs_andnot(cset a, cset b) { return (cset){a.lo & ~b.lo, a.hi & ~b.hi}; }
static inline int cs_any(cset a) { return (a.lo | a.hi) != 0; }
static inline int cs_eq(cset a, cset b) { return a.lo == b.lo && a.hi == b.hi; }
static inline int cs_has(cset a, int i) { return i < 64 ? (int)(a.lo >> i & 1) : (int)(a.hi >> (i - 64) & 1); }
static inline cset cs_bit(int i)
{
    return i < 64 ? (cset){(uint64_t)1 << i, 0} : (cset){0, (uint64_t)1 << (i - 64)};
}
static inline int pop64(uint64_t x) { return shudu_pop64(x); }
static inline int ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int c = 0;
    while (!(x & 1u)) { x >>= 1; c++; }
    return c;
#endif
}
static inline int cs_pop(cset a) { return pop64(a.lo) + pop64(a.hi); }
/* More than one cell. */
static inline int cs_many(cset a)
{
    return (a.lo & (a.lo - 1)) || (a.hi & (a.hi - 1)) || (a.lo && a.hi);
}
/* Exactly two bits set. */
static inline int two_bits(uint64_t x)
{
    uint64_t rest = x & (x - 1);
    return rest && !(rest & (rest - 1));
}
/* The set without its lowest cell. */
static inline cset cs_drop_low(cset a)
{
    return a.lo ? (cset){a.lo & (a.lo - 1), a.hi} : (cset){0, a.hi & (a.hi - 1)};
}
/* At most two cells, and exactly two: counts without a popcount. */
static inline int cs_at_most2(cset a) { return !cs_many(cs_drop_low(a)); }
static inline int cs_two(cset a) { return cs_many(a) && cs_at_most2(a); }
/* The lowest cell of a non-empty set. */
static inline int cs_low(cset a) { return a.lo ? ctz64(a.lo) : 64 + ctz64(a.hi); }
static inline void cs_clear(cset *a, int i)
{
    if (i < 64) a->lo &= ~((uint64_t)1 << i);
    else a->hi &= ~((uint64_t)1 << (i - 64));
}
#define CS_FOR(var, set, body)                                  \
    do {                                                        \
        uint64_t _w0 = (set).lo, _w1 = (set).hi;                \
        while (_w0) { int var = ctz64(_w0); _w0 &= _w0 - 1; body } \
        while (_w1) { int var = 64 + ctz64(_w1); _w1 &= _w1 - 1; body } \
    } while (0)

typedef struct {
    int index;     /* position in the overlap list of the geometry (the finders' order) */
    int a, b;      /* its houses */
    cset rest;     /* cells of b outside a */
    cset outside;  /* cells of a outside b */
} overlap_t;

typedef struct {
    cset abits;     /* the cells of house a */
    int first, end; /* its overlaps: ov[first:end] */
} group_t;

typedef struct {
    int n, ncells, nhouses;
    cset house[S_MAX_HOUSES];
    cset peer[S_MAX_CELLS];
    uint64_t hmask[S_MAX_CELLS];
    int nch[S_MAX_CELLS];
    uint8_t ch[S_MAX_CELLS][S_MAX_CELL_HOUSES];
    /* per cell, the cells it forms a locked pair with (a box or region and another house) */
    cset locked[S_MAX_CELLS];
    uint64_t boxlike; /* the houses that are boxes or regions */
    int ngroups[2]; /* [0]: pointing (a is a box or region), [1]: claiming */
    group_t groups[2][S_MAX_HOUSES];
    overlap_t *ov;  /* grouped by kind, then by house a, in the original order */
} tables_t;

/* The tables of an entry point's call that takes `want` arguments, the first the tables'
 * capsule: NULL with an exception set ("name takes want arguments"). */
SHUDU_HIDDEN const tables_t *shudu_call_tables(PyObject *const *args, Py_ssize_t nargs,
                                               Py_ssize_t want, const char *name);
/* A Python int read as a cell set of ncells cells (TypeError, OverflowError: -1). */
SHUDU_HIDDEN int shudu_get_cset(PyObject *x, int ncells, cset *out);
/* A cell set as a new Python int (NULL on error). */
SHUDU_HIDDEN PyObject *shudu_from_cset(cset a);

/* The state of one settle call (settle.c, singles.c, patterns.c): the grid as it changes, and what changed since the
 * last look. */
typedef struct {
    const tables_t *t;
    uint32_t cands[S_MAX_CELLS];
    uint8_t values[S_MAX_CELLS];
    cset where[S_MAX_DIGITS];
    uint32_t placed[S_MAX_HOUSES];
    cset empty, dcells;
    uint64_t hdirty;
    uint32_t dh[S_MAX_HOUSES];
    cset elim[S_MAX_DIGITS]; /* a rule's eliminations, per digit */
    /* rule 4, a forcing-net contradiction inside (nested forcing nets): its deductions, and the
     * budget of the settles it runs (NULL: the rule is not followed) */
    long inner;
    struct settle_nest *nest;
} settle_state_t;

/* The budget of a nested net's inner searches: one unit a settle, a deadline; spent is set
 * once either ran out (the settle then stops). */
typedef struct settle_nest {
    budget_t budget;
    uint64_t settles;
    int spent;
} settle_nest_t;

enum { S_SETTLED = 0, S_BROKEN = 1, S_STOPPED = 2 };

/* propagate.settle on s (loaded by the caller): S_SETTLED, S_BROKEN or S_STOPPED; *steps gets the
 * count of deductions (-1 when stopped).  start_cell -1: no assumption.  nrules up to 4 (the
 * net's rules), or 5 with s->nest set (and a forcing-net contradiction inside as the last rule;
 * S_STOPPED when its budget is spent). */
SHUDU_HIDDEN int shudu_run_settle(settle_state_t *s, int start_cell, int start_digit, int quiet,
                                  long limit, int nrules, long *steps);
/* grid.place on s: digit (1..n) put in cell, removed from the cell's peers. */
SHUDU_HIDDEN void shudu_settle_place(settle_state_t *s, int cell, int digit);
/* Rule r of the settle loop (0 pointing, 1 claiming, 2 naked pair, 3 hidden pair, 4 a
 * forcing-net contradiction inside, with s->nest set): 1 with its eliminations in s->elim (per
 * digit), else 0 (rule 4: also when its budget is spent, s->nest->spent). */
SHUDU_HIDDEN int shudu_settle_rule(settle_state_t *s, int r);
/* The first forcing-net contradiction of s (the rule a nested net adds, forcing.forcing_net_inside:
 * the first candidate, cells with fewest candidates first, whose assumption followed with singles
 * and the net's rules breaks the grid), each assumption one unit of s->nest (set by the caller):
 * 1 with *cell and *digit (1..n), 0 when there is none or the budget is spent (s->nest->spent). */
SHUDU_HIDDEN int shudu_first_contradiction(settle_state_t *s, int *cell, int *digit);
/* The fields of a CandidateGrid (cands, where, placed, values, empty) read into s, checked
 * against t; values start at 0 (the cells placed by the call are marked there). -1 on error. */
SHUDU_HIDDEN int shudu_load_settle_state(settle_state_t *s, const tables_t *t, PyObject *const *grid);

/* What a call may change of its grid, kept by shudu_load_grid so that shudu_store_grid writes
 * back only that (settle_tables.c). */
typedef struct {
    uint32_t cands[S_MAX_CELLS], placed[S_MAX_HOUSES];
    cset where[S_MAX_DIGITS];
} saved_t;

/* shudu_load_settle_state, keeping in saved what the call may change (saved may be NULL). */
SHUDU_HIDDEN int shudu_load_grid(settle_state_t *s, const tables_t *t, PyObject *const *grid,
                                 saved_t *saved);
/* Write back what changed since shudu_load_grid (values: the cells placed here); the new empty
 * set, or NULL. */
SHUDU_HIDDEN PyObject *shudu_store_grid(const settle_state_t *s, PyObject *const *grid,
                                        const saved_t *saved);

#endif
