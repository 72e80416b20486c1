/*
 * The conclusions of the cell and house forcing chains over direct links
 * (shudu.logic.techniques.static_forcing._conclusions_py, the specification) in C.
 *
 * From each candidate, follow the links the grid shows as it stands, wave by wave: a true
 * candidate makes false the other candidates of its cell and the digit in the cell's peers; a
 * false candidate makes true the other candidate of a cell with two, and the other place of a
 * digit with two places in a house.  A wave that would make a candidate both true and false is
 * left out, and the walk stops.  Then for each choice (the candidates of a cell with three or
 * more, then the places of each digit with two or more in each house, in the Python order),
 * whatever every one of its assumptions reaches is a conclusion; each keeps the fewest nodes
 * (the sum of the chains' depths) and, among equals, the first choice that reached it.
 *
 * Nothing here calls back into Python or keeps state between calls: one call reads the grid,
 * walks every candidate once and returns the conclusions; a 9x9 grid takes well under a
 * millisecond.  The Python caller counts the choices against the logic budget before it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "direct.h"
#include "settle_tables.h"

/* Where one assumption leads: per digit, the cells made true (on) and false (off), and the
 * depth of each (the wave that reached it, plus one; 0: not reached). */
typedef struct {
    cset *on, *off;  /* [n] each */
    uint16_t *depth; /* [2][n][ncells]: [1] for true, [0] for false */
} reach_t;

/* The reaches' tables, handed out from blocks of about 64 KiB as assumptions are followed:
 * only what a call follows is allocated and written, in memory the allocator hands back from
 * call to call (a table for every assumption at once, 2 MiB on a 9x9 grid, came from fresh
 * pages or had to be cleared). A table is written before it is read: a reach's on and off when
 * it is followed, and a depth wherever on or off holds its node, where alone it is read. */
typedef struct block {
    struct block *next;
    cset data[]; /* csets first in each table: the tables' size keeps them aligned */
} block_t;

#define BLOCK_BYTES 65536

typedef struct {
    const tables_t *t;
    int n, nc;
    uint32_t cands[S_MAX_CELLS];
    cset where[S_MAX_DIGITS], empty, pairs;
    cset partner[S_MAX_DIGITS][S_MAX_CELLS];
    reach_t *reach;   /* [ncells * n], by cell then digit */
    uint8_t *done;    /* [ncells * n]: that reach is followed */
    block_t *blocks;  /* the reaches' tables */
    size_t per, left; /* a table's size in csets (its on, off and depths); tables left */
    cset *at;         /* the next table */
    int failed;       /* out of memory: a reach that could not be followed reaches nothing */
    reach_t none;     /* what such a reach is: on and off empty */
} direct_t;

/* A fresh table for one reach (its on, off and depths), or NULL when memory runs out. */
static cset *table(direct_t *g)
{
    if (!g->left) {
        size_t bytes = g->per * sizeof(cset), count = BLOCK_BYTES / bytes ? BLOCK_BYTES / bytes : 1;
        block_t *b = (block_t *)malloc(sizeof(block_t) + count * bytes);
        if (!b) return NULL;
        b->next = g->blocks;
        g->blocks = b;
        g->at = b->data;
        g->left = count;
    }
    cset *out = g->at;
    g->at += g->per;
    g->left--;
    return out;
}

static inline uint16_t *depth_of(const direct_t *g, const reach_t *r, int on, int d)
{
    return r->depth + ((size_t)on * (size_t)g->n + (size_t)d) * (size_t)g->nc;
}

/* Follow "d in cell" (Links.follow). */
static void follow(direct_t *g, int cell, int d, reach_t *r)
{
    const int n = g->n;
    const cset *peer = g->t->peer;
    cset wave[S_MAX_DIGITS], out[S_MAX_DIGITS];
    memset(r->on, 0, sizeof(cset) * (size_t)n);
    memset(r->off, 0, sizeof(cset) * (size_t)n);
    memset(wave, 0, sizeof wave);
    r->on[d] = wave[d] = cs_bit(cell);
    depth_of(g, r, 1, d)[cell] = 1;
    int k = 1; /* waves so far */
    for (;;) {
        /* what the new true candidates make false */
        memset(out, 0, sizeof out);
        for (int v = 0; v < n; v++)
            CS_FOR(c, wave[v], {
                cset low = cs_bit(c);
                uint32_t others = g->cands[c] & ~(1u << v);
                while (others) {
                    int w = ctz64(others);
                    others &= others - 1;
                    out[w] = cs_or(out[w], low);
                }
                out[v] = cs_or(out[v], cs_and(g->where[v], peer[c]));
            });
        int any = 0;
        for (int v = 0; v < n; v++) {
            if (cs_any(cs_and(out[v], r->on[v]))) return;
            wave[v] = cs_andnot(out[v], r->off[v]);
            any |= cs_any(wave[v]);
        }
        if (!any) return;
        k++;
        for (int v = 0; v < n; v++) {
            r->off[v] = cs_or(r->off[v], wave[v]);
            uint16_t *dep = depth_of(g, r, 0, v);
            CS_FOR(c, wave[v], { dep[c] = (uint16_t)k; });
        }
        /* what the new false candidates make true */
        memset(out, 0, sizeof out);
        for (int v = 0; v < n; v++)
            CS_FOR(c, wave[v], {
                if (cs_has(g->pairs, c)) {
                    int other = ctz64(g->cands[c] & ~(1u << v)); /* its one other candidate */
                    out[other] = cs_or(out[other], cs_bit(c));
                }
                out[v] = cs_or(out[v], g->partner[v][c]);
            });
        any = 0;
        for (int v = 0; v < n; v++) {
            if (cs_any(cs_and(out[v], r->off[v]))) return;
            wave[v] = cs_andnot(out[v], r->on[v]);
            any |= cs_any(wave[v]);
        }
        if (!any) return;
        k++;
        for (int v = 0; v < n; v++) {
            r->on[v] = cs_or(r->on[v], wave[v]);
            uint16_t *dep = depth_of(g, r, 1, v);
            CS_FOR(c, wave[v], { dep[c] = (uint16_t)k; });
        }
    }
}

static const reach_t *reach_of(direct_t *g, int cell, int d)
{
    size_t i = (size_t)cell * (size_t)g->n + (size_t)d;
    if (!g->done[i]) {
        cset *mine = table(g);
        if (!mine) {
            g->failed = 1;
            return &g->none;
        }
        reach_t *r = &g->reach[i];
        r->on = mine;
        r->off = mine + g->n;
        r->depth = (uint16_t *)(void *)(mine + 2 * g->n);
        follow(g, cell, d, r);
        g->done[i] = 1;
    }
    return &g->reach[i];
}

/* The best (fewest nodes, first choice among equals) of each conclusion: [2][n][ncells]. */
typedef struct {
    int32_t *nodes; /* 0: none yet */
    int32_t *choice;
} best_t;

/* One choice: its assumptions (cells, digits) and what they all reach. */
static void conclude(direct_t *g, best_t *best, int index, const int *cells, const int *digits,
                     int count)
{
    const int n = g->n, nc = g->nc;
    const reach_t *reached[S_MAX_CELLS];
    for (int i = 0; i < count; i++) reached[i] = reach_of(g, cells[i], digits[i]);
    for (int on = 1; on >= 0; on--)
        for (int d = 0; d < n; d++) {
            cset common = g->empty;
            for (int i = 0; i < count && cs_any(common); i++)
                common = cs_and(common, on ? reached[i]->on[d] : reached[i]->off[d]);
            if (on) {
                for (int i = 0; i < count; i++)
                    if (digits[i] == d) common = cs_andnot(common, cs_bit(cells[i]));
            } else {
                common = cs_and(common, g->where[d]);
            }
            size_t at = ((size_t)on * (size_t)n + (size_t)d) * (size_t)nc;
            CS_FOR(c, common, {
                int32_t nodes = 0;
                for (int i = 0; i < count; i++) nodes += depth_of(g, reached[i], on, d)[c];
                if (!best->nodes[at + c] || nodes < best->nodes[at + c]) {
                    best->nodes[at + c] = nodes;
                    best->choice[at + c] = index;
                }
            });
        }
}

static int read_grid(direct_t *g, PyObject *cands, PyObject *where, PyObject *empty)
{
    const int nc = g->nc, n = g->n;
    if (!PyList_Check(cands) || PyList_GET_SIZE(cands) != nc || !PyList_Check(where) ||
        PyList_GET_SIZE(where) != n) {
        PyErr_SetString(PyExc_ValueError, "the grid does not match the tables");
        return -1;
    }
    for (int c = 0; c < nc; c++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(cands, c));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v >= (1L << n)) {
            PyErr_Format(PyExc_ValueError, "a cell's candidates out of range: %ld", v);
            return -1;
        }
        g->cands[c] = (uint32_t)v;
    }
    for (int d = 0; d < n; d++)
        if (shudu_get_cset(PyList_GET_ITEM(where, d), nc, &g->where[d])) return -1;
    return shudu_get_cset(empty, nc, &g->empty);
}

/* The direct links: per digit, the other place in each house where it has two; the cells with
 * two candidates. */
static void links(direct_t *g)
{
    const tables_t *t = g->t;
    memset(g->partner, 0, sizeof g->partner);
    for (int d = 0; d < g->n; d++)
        for (int h = 0; h < t->nhouses; h++) {
            cset spots = cs_and(g->where[d], t->house[h]);
            if (cs_pop(spots) != 2) continue;
            CS_FOR(c, spots, { g->partner[d][c] = cs_or(g->partner[d][c], cs_andnot(spots, cs_bit(c))); });
        }
    g->pairs = (cset){0, 0};
    CS_FOR(c, g->empty, {
        if (pop64(g->cands[c]) == 2) g->pairs = cs_or(g->pairs, cs_bit(c));
    });
}

/* Every choice in the order of static_forcing._choices, concluded. */
static void run(direct_t *g, best_t *best)
{
    const tables_t *t = g->t;
    int cells[S_MAX_CELLS], digits[S_MAX_CELLS], index = 0;
    CS_FOR(c, g->empty, {
        uint32_t mask = g->cands[c];
        if (pop64(mask) >= 3) {
            int count = 0;
            while (mask) {
                cells[count] = c;
                digits[count++] = ctz64(mask);
                mask &= mask - 1;
            }
            conclude(g, best, index, cells, digits, count);
            index++;
        }
    });
    for (int h = 0; h < t->nhouses; h++)
        for (int d = 0; d < g->n; d++) {
            cset spots = cs_and(g->where[d], t->house[h]);
            if (!cs_many(spots)) continue;
            int count = 0;
            CS_FOR(c, spots, {
                cells[count] = c;
                digits[count++] = d;
            });
            conclude(g, best, index, cells, digits, count);
            index++;
        }
}

PyObject *shudu_direct_forcing(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 4, "direct_forcing");
    if (!t) return NULL;
    direct_t *g = (direct_t *)calloc(1, sizeof(direct_t));
    if (!g) return PyErr_NoMemory();
    g->t = t;
    g->n = t->n;
    g->nc = t->ncells;
    size_t slots = (size_t)g->nc * (size_t)g->n, cells = slots * 2;
    PyObject *result = NULL;
    best_t best = {NULL, NULL};
    /* a table: 2n csets (on, off), then 2 * n * ncells depths, rounded up to whole csets */
    g->per = 2 * (size_t)g->n + (cells * sizeof(uint16_t) + sizeof(cset) - 1) / sizeof(cset);
    static cset nothing[S_MAX_DIGITS]; /* the none reach's on and off: always empty */
    g->none.on = g->none.off = nothing;
    g->reach = (reach_t *)malloc(slots * sizeof(reach_t)); /* each set when it is followed */
    g->done = (uint8_t *)calloc(slots, 1);
    best.nodes = (int32_t *)calloc(cells, sizeof(int32_t));
    best.choice = (int32_t *)calloc(cells, sizeof(int32_t));
    if (!g->reach || !g->done || !best.nodes || !best.choice) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_grid(g, args[1], args[2], args[3])) goto done;
    links(g);
    run(g, &best);
    if (g->failed) {
        PyErr_NoMemory();
        goto done;
    }
    /* [(nodes, cell, digit index, on, choice index)], by on, digit and cell */
    if (!(result = PyList_New(0))) goto done;
    for (int on = 1; on >= 0; on--)
        for (int d = 0; d < g->n; d++)
            for (int c = 0; c < g->nc; c++) {
                size_t at = ((size_t)on * (size_t)g->n + (size_t)d) * (size_t)g->nc + (size_t)c;
                if (!best.nodes[at]) continue;
                PyObject *item = Py_BuildValue("(iiiOi)", best.nodes[at], c, d,
                                               on ? Py_True : Py_False, best.choice[at]);
                if (!item || PyList_Append(result, item)) {
                    Py_XDECREF(item);
                    Py_CLEAR(result);
                    goto done;
                }
                Py_DECREF(item);
            }
done:
    free(best.nodes);
    free(best.choice);
    while (g->blocks) {
        block_t *next = g->blocks->next;
        free(g->blocks);
        g->blocks = next;
    }
    free(g->done);
    free(g->reach);
    free(g);
    return result;
}
