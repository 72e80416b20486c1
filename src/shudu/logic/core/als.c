/*
 * The solving path's almost-locked-set finders (shudu.logic.techniques.als_first: _xz_py, _xy_wing_py,
 * _death_blossom_py, the specification) in C.
 *
 * The sets and their restricted commons are listed as als_sets.c does; then one finder
 * looks for its first step in the Python order: ALS-XZ, ALS-XY-Wing or Death Blossom.  The
 * call returns that step's sets, digits and eliminations, and the work it did: one unit a set listed, a set whose
 * links are searched, and a node of the Death Blossom's search, within a budget of units and a
 * deadline.  Nothing here calls back into Python or keeps state between calls.
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

/* A step found: its sets (up to 4), digits, and eliminations per digit. */
typedef struct {
    int32_t set[4];
    int nsets, stem, x, y, z;
    cset elim[S_MAX_DIGITS];
} found_t;

static cset targets(const als_ctx *g, const als_t *a, const als_t *b, int z)
{
    return cs_and(g->where[z], cs_and(a->seeing[z], b->seeing[z]));
}

/* Whether a and b rule out something for the digits zs; the eliminations in f. */
static int rule_out(const als_ctx *g, const als_t *a, const als_t *b, uint32_t zs, found_t *f)
{
    int any = 0;
    memset(f->elim, 0, sizeof f->elim);
    for (; zs; zs &= zs - 1) {
        int z = ctz64(zs);
        f->elim[z] = targets(g, a, b, z);
        any |= cs_any(f->elim[z]);
    }
    return any;
}

static int find_xz(als_ctx *g, found_t *f)
{
    for (int32_t i = 0; i < g->nsets; i++) {
        if (!unit(g)) return 0;
        const als_t *a = &g->sets[i];
        const links_t *l = &g->links[i];
        for (int32_t k = 0; k < l->count; k++) {
            int32_t j = l->to[k];
            if (j < i) continue;
            const als_t *b = &g->sets[j];
            int x = ctz64(l->rcc[k]);
            if (rule_out(g, a, b, a->digits & b->digits & ~(1u << x), f)) {
                f->set[0] = i;
                f->set[1] = j;
                f->nsets = 2;
                f->x = x;
                return 1;
            }
        }
    }
    return 0;
}


static int find_xy_wing(als_ctx *g, found_t *f)
{
    /* per pivot, its partners sorted by set index (pairs of index and rcc, sorted on index) */
    int32_t *sorted = (int32_t *)malloc(((size_t)2 * (size_t)g->nsets + 2) * sizeof(int32_t));
    if (!sorted) return -1;
    int got = 0;
    for (int32_t k = 0; k < g->nsets && !got; k++) {
        if (!unit(g)) break;
        const links_t *l = &g->links[k];
        for (int32_t q = 0; q < l->count; q++) {
            sorted[2 * q] = l->to[q];
            sorted[2 * q + 1] = (int32_t)l->rcc[q];
        }
        qsort(sorted, (size_t)l->count, 2 * sizeof(int32_t), als_by_set);
        for (int32_t p = 0; p < l->count && !got; p++) {
            if (!unit(g)) goto out;
            int32_t i = sorted[2 * p];
            uint32_t rcc_a = (uint32_t)sorted[2 * p + 1];
            const als_t *a = &g->sets[i];
            for (int32_t q = p + 1; q < l->count && !got; q++) {
                int32_t j = sorted[2 * q];
                uint32_t rcc_b = (uint32_t)sorted[2 * q + 1];
                const als_t *b = &g->sets[j];
                if (cs_any(cs_and(a->cells, b->cells))) continue;
                for (uint32_t xm = rcc_a; xm && !got; xm &= xm - 1) {
                    int x = ctz64(xm);
                    for (uint32_t ym = rcc_b & ~(1u << x); ym && !got; ym &= ym - 1) {
                        int y = ctz64(ym);
                        uint32_t zs = a->digits & b->digits & ~(1u << x) & ~(1u << y);
                        if (rule_out(g, a, b, zs, f)) {
                            f->set[0] = k;
                            f->set[1] = i;
                            f->set[2] = j;
                            f->nsets = 3;
                            f->x = x;
                            f->y = y;
                            got = 1;
                        }
                    }
                }
            }
        }
    }
out:
    free(sorted);
    return got;
}

/* als._blossom: one petal per stem digit, disjoint, leaving cells that see every z of them. */
static int blossom(als_ctx *g, int32_t *const *options, const int32_t *counts, int k, int z,
                   int32_t *chosen, cset used, cset tg, found_t *f)
{
    if (k >= f->nsets) {
        if (!cs_any(tg)) return 0;
        memset(f->elim, 0, sizeof f->elim);
        f->elim[z] = tg;
        for (int i = 0; i < k && i < 3; i++) f->set[i] = chosen[i];
        return 1;
    }
    if (k >= 3 || !unit(g)) return 0; /* a stem has at most three digits */
    for (int32_t q = 0; q < counts[k]; q++) {
        const als_t *s = &g->sets[options[k][q]];
        if (cs_any(cs_and(s->cells, used))) continue;
        cset narrowed = cs_and(tg, s->seeing[z]);
        if (!cs_any(narrowed)) continue;
        chosen[k] = options[k][q];
        if (blossom(g, options, counts, k + 1, z, chosen, cs_or(used, s->cells), narrowed, f)) return 1;
        if (g->spent) return 0;
    }
    return 0;
}

static int find_death_blossom(als_ctx *g, found_t *f)
{
    const tables_t *t = g->t;
    int32_t *block = (int32_t *)malloc(((size_t)6 * (size_t)g->nsets + 6) * sizeof(int32_t));
    if (!block) return -1;
    int32_t *petals[3] = {block, block + g->nsets + 1, block + 2 * ((size_t)g->nsets + 1)};
    int32_t *options[3] = {block + 3 * ((size_t)g->nsets + 1), block + 4 * ((size_t)g->nsets + 1),
                           block + 5 * ((size_t)g->nsets + 1)};
    int got = 0;
    for (int stem = 0; stem < g->nc && !got && !g->spent; stem++) {
        uint32_t sd = g->cands[stem];
        int np = pop64(sd);
        if (!cs_has(g->empty, stem) || np < 2 || np > 3) continue;
        int32_t pcount[3] = {0, 0, 0};
        int k = 0, all = 1;
        for (uint32_t m = sd; m; m &= m - 1, k++) {
            int d = ctz64(m);
            for (int32_t j = 0; j < g->nsets; j++) {
                const als_t *s = &g->sets[j];
                if (!cs_has(s->cells, stem) && cs_any(s->holding[d]) &&
                    !cs_any(cs_andnot(s->holding[d], t->peer[stem])))
                    petals[k][pcount[k]++] = j;
            }
            all &= pcount[k] > 0;
        }
        if (!all) continue;
        if (!unit(g)) continue;
        for (int z = 0; z < g->n && !got; z++) {
            if (sd >> z & 1) continue;
            int32_t ocount[3] = {0, 0, 0};
            int ok = 1;
            for (k = 0; k < np; k++) {
                for (int32_t q = 0; q < pcount[k]; q++)
                    if (g->sets[petals[k][q]].digits >> z & 1) options[k][ocount[k]++] = petals[k][q];
                ok &= ocount[k] > 0;
            }
            if (!ok) continue;
            int32_t chosen[3];
            f->nsets = np;
            if (blossom(g, options, ocount, 0, z, chosen, (cset){0, 0},
                        cs_andnot(g->where[z], cs_bit(stem)), f)) {
                f->stem = stem;
                f->z = z;
                got = 1;
            }
            if (g->spent) break;
        }
    }
    free(block);
    return got;
}

static PyObject *set_tuple(const als_t *s)
{
    PyObject *cells = shudu_from_cset(s->cells);
    if (!cells) return NULL;
    return Py_BuildValue("(Nki)", cells, (unsigned long)s->digits, s->house);
}

/* [(cell, digit)] of the cells per digit index, for the digits in the mask: by digit, then cell. */
PyObject *als_cell_digit_list(const cset *per_digit, uint32_t digits)
{
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (; digits; digits &= digits - 1) {
        int d = ctz64(digits);
        CS_FOR(c, per_digit[d], {
            PyObject *pair = Py_BuildValue("(ii)", c, d + 1);
            if (!pair || PyList_Append(list, pair)) {
                Py_XDECREF(pair);
                Py_DECREF(list);
                return NULL;
            }
            Py_DECREF(pair);
        });
    }
    return list;
}

static PyObject *elims_list(const als_ctx *g, const found_t *f)
{
    return als_cell_digit_list(f->elim, (uint32_t)((1u << g->n) - 1));
}

/* (sets, x, y, stem, z, eliminations) of a step found */
static PyObject *found_tuple(const als_ctx *g, const found_t *f)
{
    PyObject *sets = PyTuple_New(f->nsets);
    if (!sets) return NULL;
    for (int k = 0; k < f->nsets; k++) {
        PyObject *one = set_tuple(&g->sets[f->set[k]]);
        if (!one) {
            Py_DECREF(sets);
            return NULL;
        }
        PyTuple_SET_ITEM(sets, k, one);
    }
    PyObject *elims = elims_list(g, f);
    if (!elims) {
        Py_DECREF(sets);
        return NULL;
    }
    return Py_BuildValue("(NiiiiN)", sets, f->x, f->y, f->stem, f->z, elims);
}

PyObject *shudu_als(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int most, finder;
    als_ctx *g = als_read_call("als", args, nargs, 3, &most, &finder);
    if (!g) return NULL;
    PyObject *result = NULL;
    found_t f;
    memset(&f, 0, sizeof f);
    int got = 0;
    if (als_list_sets(g, most)) {
        PyErr_NoMemory();
        goto done;
    }
    if (!g->spent) {
        if (finder == 2) {
            got = find_death_blossom(g, &f);
        } else if (als_list_links(g)) {
            got = -1;
        } else {
            got = finder == 0 ? find_xz(g, &f) : find_xy_wing(g, &f);
        }
    }
    if (got < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* (code, units, step): code 0 none, 1 found, 2 stopped by the budget */
    if (got) {
        PyObject *step = found_tuple(g, &f);
        if (step) result = Py_BuildValue("(iKN)", 1, (unsigned long long)g->units, step);
    } else {
        result = Py_BuildValue("(iKO)", g->spent ? 2 : 0, (unsigned long long)g->units, Py_None);
    }
done:
    als_free_ctx(g);
    return result;
}
