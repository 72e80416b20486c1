/*
 * The solving path's almost-locked-set finders (shudu.logic.als_find: _xz_py, _xy_wing_py,
 * _death_blossom_py, the specification) in C.
 *
 * The sets are listed house by house, each house's open cells walked depth first in order (a
 * set is kept from the first house that holds all its cells), as almost_locked_sets does; the
 * restricted commons between disjoint sets are found from each set's digits and the cells that
 * see all their places, in the order the Python dicts are filled; then one finder looks for its
 * first step in the Python order: ALS-XZ, ALS-XY-Wing or Death Blossom.  The call returns that
 * step's sets, digits and eliminations, and the work it did: one unit a set listed, a set whose
 * links are searched, and a node of the Death Blossom's search, within a budget of units and a
 * deadline.  Nothing here calls back into Python or keeps state between calls.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "als.h"
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

static int list_sets(als_ctx *g, int most)
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
static int list_links(als_ctx *g)
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

static int by_set(const void *p, const void *q)
{
    int32_t a = *(const int32_t *)p, b = *(const int32_t *)q;
    return (a > b) - (a < b);
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
        qsort(sorted, (size_t)l->count, 2 * sizeof(int32_t), by_set);
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
static PyObject *cell_digit_list(const cset *per_digit, uint32_t digits)
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
    return cell_digit_list(f->elim, (uint32_t)((1u << g->n) - 1));
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

static void free_ctx(als_ctx *g)
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
    free_ctx(g);
    return NULL;
}

/* The context of a call of one of the entry points below, (tables, cands, where, empty,
 * max_cells, mode, seconds, nodes) with mode in 0 … modes - 1; NULL with an exception set. */
static als_ctx *read_call(const char *name, PyObject *const *args, Py_ssize_t nargs, int modes, int *most,
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

PyObject *shudu_als(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int most, finder;
    als_ctx *g = read_call("als", args, nargs, 3, &most, &finder);
    if (!g) return NULL;
    PyObject *result = NULL;
    found_t f;
    memset(&f, 0, sizeof f);
    int got = 0;
    if (list_sets(g, most)) {
        PyErr_NoMemory();
        goto done;
    }
    if (!g->spent) {
        if (finder == 2) {
            got = find_death_blossom(g, &f);
        } else if (list_links(g)) {
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
    free_ctx(g);
    return result;
}

/* A digit-indexed tuple of n cell sets. */
static PyObject *cset_tuple(const cset *per_digit, int n)
{
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int d = 0; d < n; d++) {
        PyObject *one = shudu_from_cset(per_digit[d]);
        if (!one) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, d, one);
    }
    return out;
}

/* Every set as (cells, digits, house, holding, seeing): the fields of als.Als. */
static PyObject *sets_list(const als_ctx *g)
{
    PyObject *list = PyList_New(g->nsets);
    if (!list) return NULL;
    for (int32_t i = 0; i < g->nsets; i++) {
        const als_t *s = &g->sets[i];
        PyObject *cells = shudu_from_cset(s->cells);
        PyObject *holding = cells ? cset_tuple(s->holding, g->n) : NULL;
        PyObject *seeing = holding ? cset_tuple(s->seeing, g->n) : NULL;
        PyObject *one = seeing ? Py_BuildValue("(NkiNN)", cells, (unsigned long)s->digits, s->house, holding,
                                               seeing)
                               : NULL;
        if (!one) {
            if (!seeing) {
                Py_XDECREF(cells);
                Py_XDECREF(holding);
            }
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, one);
    }
    return list;
}

/* Per set, a dict of the sets it links to (in the order found) and their restricted commons. */
static PyObject *links_list(const als_ctx *g)
{
    PyObject *list = PyList_New(g->nsets);
    if (!list) return NULL;
    for (int32_t i = 0; i < g->nsets; i++) {
        const links_t *l = &g->links[i];
        PyObject *dict = PyDict_New();
        if (!dict) goto fail;
        PyList_SET_ITEM(list, i, dict);
        for (int32_t k = 0; k < l->count; k++) {
            PyObject *key = PyLong_FromLong(l->to[k]);
            PyObject *value = key ? PyLong_FromUnsignedLong(l->rcc[k]) : NULL;
            int bad = !value || PyDict_SetItem(dict, key, value);
            Py_XDECREF(key);
            Py_XDECREF(value);
            if (bad) goto fail;
        }
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

/* One ALS-XY-Wing of the listing: pivot k, wings i and j, digits x (i-k) and y (j-k), and the
 * eliminations (cell, digit) by digit, then cell. */
static int add_wing(PyObject *hits, int32_t k, int32_t i, int32_t j, int x, int y, const cset *both,
                    uint32_t zs)
{
    PyObject *elims = cell_digit_list(both, zs);
    if (!elims) return -1;
    PyObject *hit = Py_BuildValue("(iiiiiN)", k, i, j, x, y, elims);
    if (!hit) return -1;
    int rc = PyList_Append(hits, hit);
    Py_DECREF(hit);
    return rc;
}

/* The elimination sets met so far, each once: a signature is its digits' count, then per digit
 * (rising) the digit and its cells (two words); kept in one block, found by a hash. */
typedef struct {
    uint64_t *hash; /* per slot; 0: empty */
    size_t *at;     /* per slot, where its signature starts in words */
    size_t cap, used;
    uint64_t *words;
    size_t nwords, capwords;
} elimset_t;

static uint64_t sig_hash(const uint64_t *sig, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < len; i++) {
        h ^= sig[i];
        h *= 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    return h | 1; /* never 0, the empty slot */
}

static int sig_grow(elimset_t *set)
{
    size_t cap = set->cap ? 2 * set->cap : 1024;
    uint64_t *hash = (uint64_t *)calloc(cap, sizeof(uint64_t));
    size_t *at = (size_t *)malloc(cap * sizeof(size_t));
    if (!hash || !at) {
        free(hash);
        free(at);
        return -1;
    }
    for (size_t i = 0; i < set->cap; i++) {
        if (!set->hash[i]) continue;
        size_t j = (size_t)set->hash[i] & (cap - 1);
        while (hash[j]) j = (j + 1) & (cap - 1);
        hash[j] = set->hash[i];
        at[j] = set->at[i];
    }
    free(set->hash);
    free(set->at);
    set->hash = hash;
    set->at = at;
    set->cap = cap;
    return 0;
}

/* 1 if the signature is new (and now kept), 0 if met before, -1 out of memory. */
static int sig_add(elimset_t *set, const uint64_t *sig, size_t len)
{
    if (2 * (set->used + 1) > set->cap && sig_grow(set)) return -1;
    uint64_t h = sig_hash(sig, len);
    size_t j = (size_t)h & (set->cap - 1);
    for (; set->hash[j]; j = (j + 1) & (set->cap - 1)) {
        const uint64_t *kept = set->words + set->at[j];
        if (set->hash[j] == h && kept[0] == sig[0] && !memcmp(kept, sig, len * sizeof(uint64_t))) return 0;
    }
    if (set->nwords + len > set->capwords) {
        size_t capwords = 2 * (set->nwords + len) + 256;
        uint64_t *words = (uint64_t *)realloc(set->words, capwords * sizeof(uint64_t));
        if (!words) return -1;
        set->words = words;
        set->capwords = capwords;
    }
    memcpy(set->words + set->nwords, sig, len * sizeof(uint64_t));
    set->hash[j] = h;
    set->at[j] = set->nwords;
    set->nwords += len;
    set->used++;
    return 1;
}

/* als._xy_wing_hits_py: every pivot C (in set order), its partners A and B (pairs in set index
 * order) and digits x, y whose wings leave cells outside C that see all of some z of both, the
 * first met of each set of eliminations; a unit a partner. 1 done, 0 stopped, -1 error. */
static int xy_wings(als_ctx *g, PyObject *hits)
{
    int32_t *sorted = (int32_t *)malloc(((size_t)2 * (size_t)g->nsets + 2) * sizeof(int32_t));
    elimset_t met = {NULL, NULL, 0, 0, NULL, 0, 0};
    if (!sorted) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = 1;
    for (int32_t k = 0; k < g->nsets && rc == 1; k++) {
        const als_t *c = &g->sets[k];
        const links_t *l = &g->links[k];
        for (int32_t q = 0; q < l->count; q++) {
            sorted[2 * q] = l->to[q];
            sorted[2 * q + 1] = (int32_t)l->rcc[q];
        }
        qsort(sorted, (size_t)l->count, 2 * sizeof(int32_t), by_set);
        for (int32_t p = 0; p < l->count && rc == 1; p++) {
            if (!unit(g)) {
                rc = 0;
                break;
            }
            int32_t i = sorted[2 * p];
            uint32_t rcc_a = (uint32_t)sorted[2 * p + 1];
            const als_t *a = &g->sets[i];
            for (int32_t q = p + 1; q < l->count && rc == 1; q++) {
                int32_t j = sorted[2 * q];
                uint32_t rcc_b = (uint32_t)sorted[2 * q + 1];
                const als_t *b = &g->sets[j];
                cset both[S_MAX_DIGITS];
                uint32_t common = 0; /* the digits with cells to lose */
                for (uint32_t m = a->digits & b->digits; m; m &= m - 1) {
                    int z = ctz64(m);
                    both[z] = cs_andnot(cs_and(g->where[z], cs_and(a->seeing[z], b->seeing[z])), c->cells);
                    if (cs_any(both[z])) common |= 1u << z;
                }
                if (!common) continue;
                for (uint32_t xm = rcc_a; xm && rc == 1; xm &= xm - 1) {
                    int x = ctz64(xm);
                    for (uint32_t ym = rcc_b & ~(1u << x); ym; ym &= ym - 1) {
                        int y = ctz64(ym);
                        uint32_t zs = common & ~(1u << x) & ~(1u << y);
                        if (!zs) continue;
                        uint64_t sig[1 + 3 * S_MAX_DIGITS];
                        size_t len = 1;
                        for (uint32_t m = zs; m; m &= m - 1) {
                            int z = ctz64(m);
                            sig[len++] = (uint64_t)z;
                            sig[len++] = both[z].lo;
                            sig[len++] = both[z].hi;
                        }
                        sig[0] = (uint64_t)(len - 1) / 3;
                        int fresh = sig_add(&met, sig, len);
                        if (fresh < 0) PyErr_NoMemory();
                        if (fresh < 0 || (fresh && add_wing(hits, k, i, j, x, y, both, zs))) {
                            rc = -1;
                            break;
                        }
                    }
                }
            }
        }
    }
    free(sorted);
    free(met.hash);
    free(met.at);
    free(met.words);
    return rc;
}

PyObject *shudu_als_sets(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int most, want;
    als_ctx *g = read_call("als_sets", args, nargs, 4, &most, &want);
    if (!g) return NULL;
    g->overlap = want >= 2;
    g->uncounted = want == 3;
    PyObject *result = NULL, *found = NULL;
    if (list_sets(g, most) || (!g->spent && want && list_links(g))) {
        PyErr_NoMemory();
        goto done;
    }
    if (!g->spent && want == 3) {
        found = PyList_New(0);
        if (!found || xy_wings(g, found) < 0) goto done;
    } else if (!g->spent) {
        found = want ? links_list(g) : sets_list(g);
        if (!found) goto done;
    }
    if (g->spent) {
        result = Py_BuildValue("(iKO)", 2, (unsigned long long)g->units, Py_None);
    } else {
        result = Py_BuildValue("(iKO)", 0, (unsigned long long)g->units, found);
    }
done:
    Py_XDECREF(found);
    free_ctx(g);
    return result;
}
