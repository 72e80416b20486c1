/*
 * The almost locked sets in C, as shudu.logic.techniques.als_listings (its specification) lists them: the sets house
 * by house, each house's open cells walked depth first in order (a set is kept from the first
 * house that holds all its cells), as almost_locked_sets does; the restricted commons between
 * sets, from each set's digits and the cells that see all their places, in the order the Python
 * dicts are filled; and the context a call reads them from.  als.c and als_list.c use them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "als.h"
#include "als_sets.h"
#include "../../solvers/core/common.h"
#include "settle_tables.h"

static int add_set(als_ctx *g, cset cells, uint32_t digits, int house)
{
    /* kept from the first house holding all its cells */
    uint64_t houses = ~(uint64_t)0;
    CS_FOR(c, cells, { houses &= g->t->hmask[c]; });
    if (ctz64(houses) < house) return 0;
    if (g->nsets == g->cap) {
        int32_t cap = g->cap ? 2 * g->cap : 256;
        als_t *grown = (als_t *)realloc(g->sets, (size_t)cap * sizeof(als_t));
        if (!grown) return -1;
        g->sets = grown;
        g->cap = cap;
    }
    als_t *s = &g->sets[g->nsets++];
    memset(s, 0, sizeof *s);
    s->cells = cells;
    s->digits = digits;
    s->house = house;
    for (uint32_t m = digits; m; m &= m - 1) {
        int d = ctz64(m);
        cset hold = {0, 0}, seen = {~(uint64_t)0, ~(uint64_t)0};
        CS_FOR(c, cells, {
            if (g->cands[c] >> d & 1) {
                hold = cs_or(hold, cs_bit(c));
                seen = cs_and(seen, g->t->peer[c]);
            }
        });
        s->holding[d] = hold;
        s->seeing[d] = cs_andnot(seen, cells);
    }
    return 0;
}

/* als._locked_but_one: every set of open[start:] added to cells with one digit more than cells. */
static int walk(als_ctx *g, const int *open, int count, int start, cset cells, uint32_t digits, int size,
                int most, int house)
{
    for (int i = start; i < count; i++) {
        int cell = open[i];
        uint32_t uni = digits | g->cands[cell];
        int width = pop64(uni);
        if (width > most + 1 || width > size + 2 + (count - i - 1)) continue;
        cset mask = cs_or(cells, cs_bit(cell));
        if (width == size + 2 && add_set(g, mask, uni, house)) return -1;
        if (size + 1 < most && walk(g, open, count, i + 1, mask, uni, size + 1, most, house)) return -1;
    }
    return 0;
}

int als_list_sets(als_ctx *g, int most)
{
    const tables_t *t = g->t;
    for (int h = 0; h < t->nhouses; h++) {
        int open[S_MAX_CELLS], count = 0;
        CS_FOR(c, cs_and(t->house[h], g->empty), {
            if (g->cands[c]) open[count++] = c;
        });
        if (walk(g, open, count, 0, (cset){0, 0}, 0, 0, most, h)) return -1;
    }
    for (int32_t i = 0; i < g->nsets && !g->uncounted; i++)
        if (!unit(g)) return 0;
    return 0;
}

/* als._links_of_py: per set, its links in the order the Python dict gets them (between disjoint
 * sets unless overlap). */
int als_list_links(als_ctx *g)
{
    const int n = g->n, nc = g->nc;
    const int32_t ns = g->nsets;
    /* per (digit, cell), the sets whose first place of the digit is that cell, in order */
    size_t slots = (size_t)n * (size_t)nc;
    int32_t *first = (int32_t *)calloc(slots + 1, sizeof(int32_t));
    int32_t *index = (int32_t *)malloc(((size_t)ns * (size_t)n + 1) * sizeof(int32_t));
    int32_t *pos = (int32_t *)malloc(((size_t)ns + 1) * sizeof(int32_t));
    int32_t *fill = (int32_t *)calloc(slots + 1, sizeof(int32_t));
    int32_t *met = (int32_t *)malloc(((size_t)ns + 1) * sizeof(int32_t));
    g->links = (links_t *)calloc((size_t)ns + 1, sizeof(links_t));
    int rc = -1;
    if (!first || !index || !pos || !fill || !met || !g->links) goto done;
    for (int32_t j = 0; j < ns; j++) pos[j] = -1;
    for (int32_t j = 0; j < ns; j++)
        for (uint32_t m = g->sets[j].digits; m; m &= m - 1) {
            int d = ctz64(m);
            first[(size_t)d * nc + cs_low(g->sets[j].holding[d]) + 1]++;
        }
    for (size_t k = 0; k < slots; k++) first[k + 1] += first[k];
    for (int32_t j = 0; j < ns; j++)
        for (uint32_t m = g->sets[j].digits; m; m &= m - 1) {
            int d = ctz64(m);
            size_t at = (size_t)d * nc + cs_low(g->sets[j].holding[d]);
            index[first[at] + fill[at]++] = j;
        }
    /* the links, two passes: count (to size the block), then place */
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (int32_t i = 0; i < ns; i++) {
            const als_t *a = &g->sets[i];
            links_t *l = &g->links[i];
            if (pass) {
                l->to = g->lto + at;
                l->rcc = g->lrcc + at;
            }
            int32_t count = 0;
            for (uint32_t m = a->digits; m; m &= m - 1) {
                int d = ctz64(m);
                cset reach = a->seeing[d];
                CS_FOR(c, reach, {
                    size_t k = (size_t)d * nc + c;
                    for (int32_t q = first[k]; q < first[k + 1]; q++) {
                        int32_t j = index[q];
                        const als_t *b = &g->sets[j];
                        if (j == i || cs_any(cs_andnot(b->holding[d], reach)) ||
                            (!g->overlap && cs_any(cs_and(a->cells, b->cells))))
                            continue;
                        if (pos[j] < 0) {
                            met[count] = j;
                            pos[j] = count++;
                            if (pass) {
                                l->to[pos[j]] = j;
                                l->rcc[pos[j]] = 0;
                            }
                        }
                        if (pass) l->rcc[pos[j]] |= 1u << d;
                    }
                });
            }
            if (pass) l->count = count;
            for (int32_t k = 0; k < count; k++) pos[met[k]] = -1;
            at += (size_t)count;
        }
        if (!pass) {
            total = at;
            g->lto = (int32_t *)malloc((total + 1) * sizeof(int32_t));
            g->lrcc = (uint32_t *)malloc((total + 1) * sizeof(uint32_t));
            if (!g->lto || !g->lrcc) goto done;
        }
    }
    rc = 0;
done:
    free(first);
    free(index);
    free(pos);
    free(fill);
    free(met);
    return rc;
}

int als_by_set(const void *p, const void *q)
{
    int32_t a = *(const int32_t *)p, b = *(const int32_t *)q;
    return (a > b) - (a < b);
}

void als_free_ctx(als_ctx *g)
{
    if (!g) return;
    free(g->lto);
    free(g->lrcc);
    free(g->links);
    free(g->sets);
    free(g);
}

/* The context of a call from its first arguments (tables, cands, where, empty) and its limits;
 * NULL with an exception set when they do not fit. */
static als_ctx *new_ctx(PyObject *const *args, double seconds, long long nodes)
{
    const tables_t *t = (const tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    PyObject *cands = args[1], *where = args[2];
    if (!PyList_Check(cands) || PyList_GET_SIZE(cands) != t->ncells || !PyList_Check(where) ||
        PyList_GET_SIZE(where) != t->n) {
        PyErr_SetString(PyExc_ValueError, "the grid does not match the tables");
        return NULL;
    }
    als_ctx *g = (als_ctx *)calloc(1, sizeof(als_ctx));
    if (!g) return (als_ctx *)PyErr_NoMemory();
    g->t = t;
    g->n = t->n;
    g->nc = t->ncells;
    g->budget.node_limit = nodes < 0 ? UINT64_MAX : (uint64_t)nodes;
    g->budget.deadline = seconds < 0 ? -1.0 : monotonic_seconds() + seconds;
    for (int c = 0; c < g->nc; c++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(cands, c));
        if (v == -1 && PyErr_Occurred()) goto fail;
        if (v < 0 || v >= (1L << g->n)) {
            PyErr_Format(PyExc_ValueError, "a cell's candidates out of range: %ld", v);
            goto fail;
        }
        g->cands[c] = (uint32_t)v;
    }
    for (int d = 0; d < g->n; d++)
        if (shudu_get_cset(PyList_GET_ITEM(where, d), g->nc, &g->where[d])) goto fail;
    if (shudu_get_cset(args[3], g->nc, &g->empty)) goto fail;
    return g;
fail:
    als_free_ctx(g);
    return NULL;
}

/* The context of a call of one of the entry points below, (tables, cands, where, empty,
 * max_cells, mode, seconds, nodes) with mode in 0 … modes - 1; NULL with an exception set. */
als_ctx *als_read_call(const char *name, PyObject *const *args, Py_ssize_t nargs, int modes, int *most,
                          int *mode)
{
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "%s takes 8 arguments", name);
        return NULL;
    }
    long m = PyLong_AsLong(args[4]), k = PyLong_AsLong(args[5]);
    double seconds = PyFloat_AsDouble(args[6]);
    long long nodes = PyLong_AsLongLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    if (m < 1 || m > 16 || k < 0 || k >= modes) {
        PyErr_Format(PyExc_ValueError, "%s: the set size or the mode is out of range", name);
        return NULL;
    }
    *most = (int)m;
    *mode = (int)k;
    return new_ctx(args, seconds, nodes);
}
