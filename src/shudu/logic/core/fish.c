/*
 * The first basic fish of one digit (shudu.logic.techniques.fish._fish, the specification) in C.
 *
 * Base lines are the rows (then the columns) that hold the digit in few enough places; k of them
 * are chosen in itertools.combinations order, leaving out the combinations whose places fall in
 * more cover lines than a fish of that kind may have; the cover lines are those of the places
 * (all of them, or for a finned fish every k of them, in combinations order).  The first choice
 * whose cover lines lose the digit somewhere outside the base lines, in cells that see every
 * fin, is the answer.  The call is bounded by the grid (at most 2 x C(11, 4) base choices) and
 * keeps no state.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "fish.h"
#include "settle_tables.h"

#define F_MAX_LINES 16
#define F_MAX_K 4

typedef struct {
    int house;
    cset spots;
    uint32_t idx; /* the cover indices of the line's places */
} line_t;

typedef struct {
    const tables_t *t;
    cset where;
    int k, finned, most, low, high;
    const int *cover_houses;
    line_t lines[F_MAX_LINES];
    int nlines;
    int chosen[F_MAX_K];
    int cover[F_MAX_K]; /* the answer's cover indices */
} fish_ctx;

static int popcount32(uint32_t x) { return pop64(x); }

/* Whether the k base lines in g->chosen, whose places fall in the cover lines ``union``, make a
 * fish (its cover indices go to g->cover). */
static int check(fish_ctx *g, uint32_t union_idx)
{
    const tables_t *t = g->t;
    int k = g->k;
    if (k < 1 || k > F_MAX_K) return 0;
    int extra = popcount32(union_idx) - k;
    if (!g->finned) {
        if (extra) return 0;
    } else if (extra < 1 || extra > g->most) {
        return 0;
    }
    cset base_cells = {0, 0}, base_bits = {0, 0};
    for (int i = 0; i < k; i++) {
        const line_t *l = &g->lines[g->chosen[i]];
        base_cells = cs_or(base_cells, l->spots);
        base_bits = cs_or(base_bits, t->house[l->house]);
    }
    cset outside = cs_andnot(g->where, base_bits);
    if (!cs_any(outside)) return 0;
    int idx[32], m = 0;
    for (uint32_t u = union_idx; u; u &= u - 1) idx[m++] = ctz64(u);
    int c[F_MAX_K];
    for (int i = 0; i < k; i++) c[i] = i;
    for (;;) {
        cset cover_bits = {0, 0};
        for (int i = 0; i < k; i++) cover_bits = cs_or(cover_bits, t->house[g->cover_houses[idx[c[i]]]]);
        cset targets = cs_and(outside, cover_bits);
        cset fins = cs_andnot(base_cells, cover_bits);
        while (cs_any(fins) && cs_any(targets)) {
            int fin = cs_low(fins);
            targets = cs_and(targets, t->peer[fin]);
            cs_clear(&fins, fin);
        }
        if (cs_any(targets)) {
            for (int i = 0; i < k; i++) g->cover[i] = idx[c[i]];
            return 1;
        }
        /* the next k-combination of m indices, in itertools order */
        int i = k - 1;
        while (i >= 0 && c[i] == m - k + i) i--;
        if (i < 0) return 0;
        c[i]++;
        for (int j = i + 1; j < k; j++) c[j] = c[j - 1] + 1;
    }
}

static int extend(fish_ctx *g, int start, int depth, uint32_t union_idx)
{
    int need = g->k - depth;
    if (depth < 0 || depth >= F_MAX_K) return 0;
    for (int i = start; i <= g->nlines - need; i++) {
        uint32_t joined = union_idx | g->lines[i].idx;
        if (popcount32(joined) > g->high) continue;
        g->chosen[depth] = i;
        if (need == 1) {
            if (check(g, joined)) return 1;
        } else if (extend(g, i + 1, depth + 1, joined)) {
            return 1;
        }
    }
    return 0;
}

/* A tuple of ints as house indices (at most F_MAX_LINES, each a house of t); -1 on error. */
static int read_houses(const tables_t *t, PyObject *seq, int *out)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != t->n || t->n > F_MAX_LINES) {
        PyErr_SetString(PyExc_ValueError, "fish: the rows and columns must be tuples of n houses");
        return -1;
    }
    for (int i = 0; i < t->n; i++) {
        long h = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (h == -1 && PyErr_Occurred()) return -1;
        if (h < 0 || h >= t->nhouses) {
            PyErr_Format(PyExc_ValueError, "fish: house %ld is out of range", h);
            return -1;
        }
        out[i] = (int)h;
    }
    return 0;
}

PyObject *shudu_fish(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 7, "fish");
    if (!t) return NULL;
    fish_ctx g;
    memset(&g, 0, sizeof g);
    g.t = t;
    if (shudu_get_cset(args[1], t->ncells, &g.where)) return NULL;
    int houses[2][F_MAX_LINES];
    if (read_houses(t, args[2], houses[0]) || read_houses(t, args[3], houses[1])) return NULL;
    long k = PyLong_AsLong(args[4]), most = PyLong_AsLong(args[6]);
    int finned = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || finned < 0) return NULL;
    if (k < 2 || k > F_MAX_K || most < 0 || most > 8 || t->ncells != t->n * t->n) {
        PyErr_SetString(PyExc_ValueError, "fish: the size, the fin lines or the grid is out of range");
        return NULL;
    }
    g.k = (int)k;
    g.finned = finned;
    g.most = (int)most;
    g.low = finned ? 1 : 2;
    g.high = finned ? g.k + g.most : g.k;
    int n = t->n;
    for (int across = 1; across >= 0; across--) {
        const int *base = houses[across ? 0 : 1];
        g.cover_houses = houses[across ? 1 : 0];
        g.nlines = 0;
        for (int i = 0; i < n; i++) {
            cset spots = cs_and(g.where, t->house[base[i]]);
            if (!cs_any(spots)) continue;
            uint32_t idx = 0;
            CS_FOR(c, spots, idx |= (uint32_t)1 << (across ? c % n : c / n););
            int count = popcount32(idx);
            if (count < g.low || count > g.high) continue;
            g.lines[g.nlines].house = base[i];
            g.lines[g.nlines].spots = spots;
            g.lines[g.nlines].idx = idx;
            g.nlines++;
        }
        if (g.nlines < g.k || !extend(&g, 0, 0, 0)) continue;
        PyObject *bases = PyTuple_New(g.k), *covers = PyTuple_New(g.k);
        if (!bases || !covers) {
            Py_XDECREF(bases);
            Py_XDECREF(covers);
            return NULL;
        }
        for (int i = 0; i < g.k; i++) {
            PyTuple_SET_ITEM(bases, i, PyLong_FromLong(g.lines[g.chosen[i]].house));
            PyTuple_SET_ITEM(covers, i, PyLong_FromLong(g.cover[i]));
        }
        return Py_BuildValue("(iNN)", across, bases, covers);
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* Every fish of one digit over any base and cover houses (shudu.logic.techniques.complex_fish.fishes, the
 * specification): k base houses from the base pool in combinations order (their places may
 * share at most max_endo cells, endo fins), then the covers, depth first from the lowest base
 * place no cover holds yet: each cover house of that place in turn, then the place as a fin
 * (while the fins' common peers still hold the digit); a fish is kept where it eliminates. */

#define X_MAX_K 4

typedef struct {
    int units;   /* base choices counted when it was found */
    int base[X_MAX_K], cover[X_MAX_K];
    cset base_cells, fins, elims;
} xfish_t;

typedef struct {
    const tables_t *t;
    cset where;
    int k, max_fins, max_endo;
    uint64_t cover_ok;
    int pool[S_MAX_HOUSES];
    cset pool_spots[S_MAX_HOUSES];
    int npool;
    int base[X_MAX_K];
    cset base_cells; /* the chosen bases' places of the digit */
    int chosen[X_MAX_K], nchosen;
    int units;
    xfish_t *found;
    size_t nfound, cap;
    int failed; /* out of memory */
} xctx;

static void x_finish(xctx *g, cset base_cells, cset uni, cset fins)
{
    const tables_t *t = g->t;
    cset targets = cs_andnot(cs_and(g->where, uni), base_cells);
    cset twice = {0, 0}, once = {0, 0};
    for (int i = 0; i < g->nchosen; i++) {
        cset inside = cs_and(base_cells, t->house[g->chosen[i]]);
        twice = cs_or(twice, cs_and(once, inside));
        once = cs_or(once, inside);
    }
    targets = cs_or(targets, cs_andnot(twice, fins));
    CS_FOR(f, fins, { targets = cs_and(targets, t->peer[f]); });
    if (!cs_any(targets)) return;
    if (g->nfound == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        xfish_t *more = (xfish_t *)realloc(g->found, cap * sizeof(xfish_t));
        if (!more) {
            g->failed = 1;
            return;
        }
        g->found = more;
        g->cap = cap;
    }
    xfish_t *x = &g->found[g->nfound++];
    memset(x, 0, sizeof *x);
    x->units = g->units;
    for (int i = 0; i < g->k; i++) x->base[i] = g->base[i];
    /* the covers, sorted */
    int c[X_MAX_K];
    for (int i = 0; i < g->nchosen; i++) c[i] = g->chosen[i];
    for (int i = 1; i < g->nchosen; i++)
        for (int j = i; j > 0 && c[j - 1] > c[j]; j--) {
            int tmp = c[j];
            c[j] = c[j - 1];
            c[j - 1] = tmp;
        }
    for (int i = 0; i < g->nchosen; i++) x->cover[i] = c[i];
    x->base_cells = base_cells;
    x->fins = fins;
    x->elims = targets;
}

/* All k covers chosen: the base places no cover holds are fins too, if they may be. */
static void x_leaf(xctx *g, cset uni, cset fins, int nfins, cset reach)
{
    const tables_t *t = g->t;
    if (g->failed) return;
    cset left = cs_andnot(cs_andnot(g->base_cells, uni), fins);
    int room = g->max_fins - nfins; /* counted as they come: no popcount call */
    CS_FOR(f, left, {
        if (room-- == 0) return; /* more fins than a fish may have */
        reach = cs_and(reach, t->peer[f]);
    });
    fins = cs_or(fins, left);
    if (!cs_any(fins) || cs_any(reach)) x_finish(g, g->base_cells, uni, fins);
}

/* ``nfins``: the fins' count; ``out``: the houses no cover may be here (as bits): the bases,
 * the covers chosen, and those an earlier branch took (every cover set with them has been
 * seen). A cell's houses are met in rising order, as its bits in t->hmask give them
 * (settle_tables keeps each cell's houses in rising order, so that is the order of t->ch and
 * of the Python search). */
static void x_covers(xctx *g, cset uni, cset fins, int nfins, cset reach, uint64_t out)
{
    const tables_t *t = g->t;
    if (g->failed) return;
    cset left = cs_andnot(cs_andnot(g->base_cells, uni), fins);
    if (!cs_any(left)) return;
    int cell = cs_low(left);
    for (uint64_t open = g->cover_ok & ~out & t->hmask[cell]; open; open &= open - 1) {
        int h = ctz64(open);
        g->chosen[g->nchosen++] = h;
        if (g->nchosen == g->k)
            x_leaf(g, cs_or(uni, t->house[h]), fins, nfins, reach);
        else
            x_covers(g, cs_or(uni, t->house[h]), fins, nfins, reach, out | (uint64_t)1 << h);
        g->nchosen--;
        out |= (uint64_t)1 << h;
    }
    if (nfins < g->max_fins) {
        /* a fin is a place no cover holds */
        cset narrowed = cs_and(reach, t->peer[cell]);
        if (cs_any(narrowed)) x_covers(g, uni, cs_or(fins, cs_bit(cell)), nfins + 1, narrowed, out | t->hmask[cell]);
    }
}

static void x_bases(xctx *g, int start, int depth, cset cells, cset endo)
{
    const tables_t *t = g->t;
    if (g->failed) return;
    if (depth == g->k) {
        g->units++;
        cset reach = g->where;
        CS_FOR(f, endo, { reach = cs_and(reach, t->peer[f]); });
        if (cs_any(reach)) {
            g->nchosen = 0;
            uint64_t bases = 0;
            for (int i = 0; i < g->k; i++) bases |= (uint64_t)1 << g->base[i];
            g->base_cells = cells;
            x_covers(g, (cset){0, 0}, endo, cs_pop(endo), reach, bases);
        }
        return;
    }
    if (depth < 0 || depth >= X_MAX_K) return;
    for (int i = start; i <= g->npool - (g->k - depth); i++) {
        cset spots = g->pool_spots[i];
        cset shared = cs_or(endo, cs_and(spots, cells));
        int count = cs_pop(shared);
        if (count > g->max_endo || count > g->max_fins) continue;
        g->base[depth] = g->pool[i];
        x_bases(g, i + 1, depth + 1, cs_or(cells, spots), shared);
    }
}

static int read_pool(const tables_t *t, PyObject *seq, int *out, int *count)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > t->nhouses) {
        PyErr_SetString(PyExc_ValueError, "fishes: a pool is a tuple of houses");
        return -1;
    }
    *count = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *count; i++) {
        long h = PyLong_AsLong(PyTuple_GET_ITEM(seq, i));
        if (h == -1 && PyErr_Occurred()) return -1;
        if (h < 0 || h >= t->nhouses) {
            PyErr_Format(PyExc_ValueError, "fishes: house %ld is out of range", h);
            return -1;
        }
        out[i] = (int)h;
    }
    return 0;
}

PyObject *shudu_fishes(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 7, "fishes");
    if (!t) return NULL;
    xctx g;
    memset(&g, 0, sizeof g);
    g.t = t;
    if (shudu_get_cset(args[1], t->ncells, &g.where)) return NULL;
    long k = PyLong_AsLong(args[2]), max_fins = PyLong_AsLong(args[5]), max_endo = PyLong_AsLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    if (k < 1 || k > X_MAX_K || max_fins < 0 || max_fins > 64 || max_endo < 0 || max_endo > 64) {
        PyErr_SetString(PyExc_ValueError, "fishes: the size or the fins are out of range");
        return NULL;
    }
    g.k = (int)k;
    g.max_fins = (int)max_fins;
    g.max_endo = (int)max_endo;
    int base_pool[S_MAX_HOUSES], cover_pool[S_MAX_HOUSES], nbase = 0, ncover = 0;
    if (read_pool(t, args[3], base_pool, &nbase) || read_pool(t, args[4], cover_pool, &ncover)) return NULL;
    for (int i = 0; i < ncover; i++) g.cover_ok |= (uint64_t)1 << cover_pool[i];
    for (int i = 0; i < nbase; i++) {
        cset spots = cs_and(g.where, t->house[base_pool[i]]);
        if (!cs_any(spots)) continue;
        g.pool[g.npool] = base_pool[i];
        g.pool_spots[g.npool] = spots;
        g.npool++;
    }
    x_bases(&g, 0, 0, (cset){0, 0}, (cset){0, 0});
    PyObject *list = NULL, *result = NULL;
    if (g.failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (!(list = PyList_New((Py_ssize_t)g.nfound))) goto done;
    for (size_t i = 0; i < g.nfound; i++) {
        const xfish_t *x = &g.found[i];
        PyObject *base = PyTuple_New(g.k), *cover = PyTuple_New(g.k);
        if (!base || !cover) {
            Py_XDECREF(base);
            Py_XDECREF(cover);
            goto done;
        }
        for (int j = 0; j < g.k; j++) {
            PyTuple_SET_ITEM(base, j, PyLong_FromLong(x->base[j]));
            PyTuple_SET_ITEM(cover, j, PyLong_FromLong(x->cover[j]));
        }
        PyObject *item = Py_BuildValue("(iNNNNN)", x->units, base, cover, shudu_from_cset(x->base_cells),
                                       shudu_from_cset(x->fins), shudu_from_cset(x->elims));
        if (!item) goto done;
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    result = Py_BuildValue("(iO)", g.units, list);
done:
    Py_XDECREF(list);
    free(g.found);
    return result;
}
