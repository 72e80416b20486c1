/*
 * The forcing nets' propagation in C: shudu.logic.propagate.settle and the rules of
 * shudu.logic.netrules, step for step.  Python stays the specification (and the fallback):
 * every loop here walks cells, houses, digits and overlaps in the order the Python code does,
 * so the first step a rule finds, the count of deductions and the grid left behind are the same.
 *
 * Cell sets are two 64-bit words (up to 128 cells: every 9x9 geometry), house sets one word
 * (up to 64 houses), digit sets 32 bits (up to 16 digits).  The tables of a geometry are built
 * once (settle_tables) and kept by the caller in a capsule.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "settle.h"
#include "settle_tables.h"

static void tables_free(PyObject *capsule)
{
    tables_t *t = (tables_t *)PyCapsule_GetPointer(capsule, S_CAPSULE);
    if (t) {
        free(t->ov);
        free(t);
    }
}

int shudu_get_cset(PyObject *x, int ncells, cset *out)
{
    static PyObject *sixty_four = NULL;
    if (!PyLong_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "a cell set must be an int");
        return -1;
    }
    out->hi = 0;
    if (ncells <= 64) {
        out->lo = PyLong_AsUnsignedLongLong(x); /* negative or too large: OverflowError */
        if (out->lo == (uint64_t)-1 && PyErr_Occurred()) return -1;
    } else {
        if (!sixty_four && !(sixty_four = PyLong_FromLong(64))) return -1;
        PyObject *high = PyNumber_Rshift(x, sixty_four);
        if (!high) return -1;
        out->hi = PyLong_AsUnsignedLongLong(high);
        Py_DECREF(high);
        if (out->hi == (uint64_t)-1 && PyErr_Occurred()) return -1;
        out->lo = PyLong_AsUnsignedLongLongMask(x);
    }
    if (ncells < 64) out->lo &= ((uint64_t)1 << ncells) - 1;
    else if (ncells < 128) out->hi &= ((uint64_t)1 << (ncells - 64)) - 1;
    return 0;
}

PyObject *shudu_from_cset(cset a)
{
    static PyObject *sixty_four = NULL;
    if (!a.hi) return PyLong_FromUnsignedLongLong(a.lo);
    if (!sixty_four && !(sixty_four = PyLong_FromLong(64))) return NULL;
    PyObject *hi = PyLong_FromUnsignedLongLong(a.hi), *lo = NULL, *shifted = NULL, *res = NULL;
    if (!hi) return NULL;
    shifted = PyNumber_Lshift(hi, sixty_four);
    lo = PyLong_FromUnsignedLongLong(a.lo);
    if (shifted && lo) res = PyNumber_Or(shifted, lo);
    Py_DECREF(hi);
    Py_XDECREF(shifted);
    Py_XDECREF(lo);
    return res;
}

static int seq_len(PyObject *seq, Py_ssize_t want, const char *what)
{
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list or tuple", what);
        return -1;
    }
    if (want >= 0 && PySequence_Fast_GET_SIZE(seq) != want) {
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, not %zd", what,
                     PySequence_Fast_GET_SIZE(seq), want);
        return -1;
    }
    return 0;
}

PyObject *shudu_settle_tables(PyObject *module, PyObject *args)
{
    int n;
    PyObject *house_bits, *peer_bits, *cell_houses, *boxlike, *overlaps;
    (void)module;
    if (!PyArg_ParseTuple(args, "iOOOOO", &n, &house_bits, &peer_bits, &cell_houses, &boxlike,
                          &overlaps))
        return NULL;
    if (seq_len(house_bits, -1, "house_bits") || seq_len(peer_bits, -1, "peer_bits") ||
        seq_len(overlaps, -1, "overlaps"))
        return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(house_bits);
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(peer_bits);
    if (n < 1 || n > S_MAX_DIGITS || nc < 1 || nc > S_MAX_CELLS || nh < 1 || nh > S_MAX_HOUSES) {
        PyErr_SetString(PyExc_ValueError, "geometry too large for the C propagation");
        return NULL;
    }
    if (seq_len(cell_houses, nc, "cell_houses") || seq_len(boxlike, nh, "boxlike")) return NULL;
    tables_t *t = (tables_t *)calloc(1, sizeof(tables_t));
    Py_ssize_t nov = PySequence_Fast_GET_SIZE(overlaps);
    if (!t || !(t->ov = (overlap_t *)calloc((size_t)(nov ? nov : 1), sizeof(overlap_t)))) {
        free(t);
        return PyErr_NoMemory();
    }
    t->n = n;
    t->ncells = (int)nc;
    t->nhouses = (int)nh;
    int box[S_MAX_HOUSES];
    for (Py_ssize_t h = 0; h < nh; h++) {
        if (shudu_get_cset(PySequence_Fast_GET_ITEM(house_bits, h), (int)nc, &t->house[h])) goto fail;
        int b = PyObject_IsTrue(PySequence_Fast_GET_ITEM(boxlike, h));
        if (b < 0) goto fail;
        box[h] = b;
        if (b) t->boxlike |= (uint64_t)1 << h;
    }
    for (Py_ssize_t c = 0; c < nc; c++) {
        if (shudu_get_cset(PySequence_Fast_GET_ITEM(peer_bits, c), (int)nc, &t->peer[c])) goto fail;
        PyObject *hs = PySequence_Fast_GET_ITEM(cell_houses, c);
        if (seq_len(hs, -1, "a cell's houses")) goto fail;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(hs);
        if (k > S_MAX_CELL_HOUSES) {
            PyErr_SetString(PyExc_ValueError, "a cell has too many houses for the C propagation");
            goto fail;
        }
        t->nch[c] = (int)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            long h = PyLong_AsLong(PySequence_Fast_GET_ITEM(hs, j));
            if (h == -1 && PyErr_Occurred()) goto fail;
            if (h < 0 || h >= nh) {
                PyErr_SetString(PyExc_ValueError, "house index out of range");
                goto fail;
            }
            if (j > 0 && h <= t->ch[c][j - 1]) { /* the searches meet them in this order */
                PyErr_SetString(PyExc_ValueError, "a cell's houses must be listed in rising order");
                goto fail;
            }
            t->ch[c][j] = (uint8_t)h;
            t->hmask[c] |= (uint64_t)1 << h;
        }
    }
    for (int a = 0; a < nc; a++)
        for (int b = 0; b < nc; b++) {
            uint64_t common = t->hmask[a] & t->hmask[b];
            int anybox = 0;
            for (int h = 0; h < nh; h++)
                if (common >> h & 1 && box[h]) anybox = 1;
            if (a != b && pop64(common) >= 2 && anybox) t->locked[a] = cs_or(t->locked[a], cs_bit(b));
        }
    /* the overlaps a -> b, split by kind of a and grouped by a in order of first appearance
     * (the overlap list comes grouped by a) */
    int k = 0;
    for (int kind = 0; kind < 2; kind++) {
        int last = -1;
        for (Py_ssize_t i = 0; i < nov; i++) {
            PyObject *o = PySequence_Fast_GET_ITEM(overlaps, i);
            if (seq_len(o, 3, "an overlap")) goto fail;
            long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(o, 0));
            long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(o, 1));
            cset inter;
            if (PyErr_Occurred() || shudu_get_cset(PySequence_Fast_GET_ITEM(o, 2), (int)nc, &inter))
                goto fail;
            if (a < 0 || a >= nh || b < 0 || b >= nh) {
                PyErr_SetString(PyExc_ValueError, "house index out of range");
                goto fail;
            }
            if ((box[a] ? 0 : 1) != kind) continue;
            if (a != last) {
                for (int g = 0; g < t->ngroups[kind]; g++)
                    if (cs_eq(t->groups[kind][g].abits, t->house[a]) && g != t->ngroups[kind] - 1) {
                        PyErr_SetString(PyExc_ValueError, "the overlaps must come grouped by house");
                        goto fail;
                    }
                group_t *g = &t->groups[kind][t->ngroups[kind]++];
                g->abits = t->house[a];
                g->first = g->end = k;
                last = (int)a;
            }
            t->ov[k].index = (int)i;
            t->ov[k].a = (int)a;
            t->ov[k].b = (int)b;
            t->ov[k].rest = cs_andnot(t->house[b], inter);
            t->ov[k].outside = cs_andnot(t->house[a], inter);
            k++;
            t->groups[kind][t->ngroups[kind] - 1].end = k;
        }
    }
    PyObject *capsule = PyCapsule_New(t, S_CAPSULE, tables_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    free(t->ov);
    free(t);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* The state of one settle call                                             */
/* ------------------------------------------------------------------------ */


static void place(settle_state_t *s, int cell, int digit)
{
    const tables_t *t = s->t;
    cset bit = cs_bit(cell);
    uint32_t own = s->cands[cell];
    for (uint32_t o = own; o; o &= o - 1) {
        int e = ctz64(o);
        s->where[e] = cs_andnot(s->where[e], bit);
    }
    int d = digit - 1;
    uint32_t dbit = (uint32_t)1 << d;
    for (int j = 0; j < t->nch[cell]; j++) {
        int h = t->ch[cell][j];
        s->placed[h] |= dbit;
        s->dh[h] |= own;
    }
    uint64_t mine = t->hmask[cell];
    s->hdirty |= mine;
    s->cands[cell] = 0;
    s->values[cell] = (uint8_t)digit;
    s->empty = cs_andnot(s->empty, bit);
    cset seen = cs_and(s->where[d], t->peer[cell]);
    if (cs_any(seen)) {
        s->where[d] = cs_andnot(s->where[d], seen);
        s->dcells = cs_or(s->dcells, seen);
        uint64_t touched = 0;
        CS_FOR(peer, seen, {
            s->cands[peer] &= ~dbit;
            touched |= t->hmask[peer];
        });
        touched &= ~mine;
        s->hdirty |= touched;
        for (; touched; touched &= touched - 1) s->dh[ctz64(touched)] |= dbit;
    }
}

/* Pointing (kind 0) or claiming (kind 1): the first step of the finder. */
static int rule_locked(settle_state_t *s, int kind)
{
    const tables_t *t = s->t;
    for (int g = 0; g < t->ngroups[kind]; g++) {
        const group_t *grp = &t->groups[kind][g];
        int best_i = -1, best_d = 0;
        cset best_out = {0, 0};
        for (int d = 0; d < t->n; d++) {
            cset w = s->where[d];
            cset inside = cs_and(w, grp->abits);
            if (!cs_many(inside)) continue;
            for (int k = grp->first; k < grp->end; k++) {
                const overlap_t *o = &t->ov[k];
                if (cs_any(cs_and(inside, o->outside))) continue;
                cset out = cs_and(w, o->rest);
                if (cs_any(out) && (best_i < 0 || o->index < best_i)) {
                    best_i = o->index;
                    best_d = d;
                    best_out = out;
                }
            }
        }
        if (best_i >= 0) {
            s->elim[best_d] = best_out;
            return 1;
        }
    }
    return 0;
}

static int rule_naked_pair(settle_state_t *s)
{
    const tables_t *t = s->t;
    cset ones = {0, 0}, twos = {0, 0}, more = {0, 0};
    for (int d = 0; d < t->n; d++) {
        cset plane = s->where[d];
        more = cs_or(more, cs_and(twos, plane));
        twos = cs_or(twos, cs_and(ones, plane));
        ones = cs_or(ones, plane);
    }
    cset small_cells = cs_andnot(s->empty, more);
    for (int h = 0; h < t->nhouses; h++) {
        cset small_here = cs_and(t->house[h], small_cells);
        if (!cs_many(small_here) || cs_at_most2(cs_and(t->house[h], s->empty))) continue;
        int small[S_MAX_CELLS], ns = 0;
        CS_FOR(c, small_here, { small[ns++] = c; });
        for (int i = 0; i < ns; i++) {
            int a = small[i];
            for (int j = i + 1; j < ns; j++) {
                int b = small[j];
                uint32_t uni = s->cands[a] | s->cands[b];
                if (!two_bits(uni) || cs_has(t->locked[a], b)) continue;
                cset inside = cs_or(cs_bit(a), cs_bit(b));
                int any = 0;
                for (uint32_t u = uni; u; u &= u - 1) {
                    int d = ctz64(u);
                    cset seen = cs_andnot(s->where[d], inside);
                    if (s->cands[a] >> d & 1) seen = cs_and(seen, t->peer[a]);
                    if (s->cands[b] >> d & 1) seen = cs_and(seen, t->peer[b]);
                    s->elim[d] = seen;
                    any |= cs_any(seen);
                }
                if (any) return 1;
                for (uint32_t u = uni; u; u &= u - 1) s->elim[ctz64(u)] = (cset){0, 0};
            }
        }
    }
    return 0;
}

static int rule_hidden_pair(settle_state_t *s)
{
    const tables_t *t = s->t;
    for (int h = 0; h < t->nhouses; h++) {
        cset hbits = t->house[h];
        if (cs_at_most2(cs_and(hbits, s->empty))) continue;
        int fd[S_MAX_DIGITS], nf = 0;
        cset fs[S_MAX_DIGITS];
        for (int d = 0; d < t->n; d++) {
            cset spots = cs_and(s->where[d], hbits);
            if (cs_any(spots) && cs_at_most2(spots)) {
                fd[nf] = d;
                fs[nf++] = spots;
            }
        }
        if (nf < 2) continue;
        for (int i = 0; i < nf; i++)
            for (int j = i + 1; j < nf; j++) {
                cset uni = cs_or(fs[i], fs[j]);
                if (!cs_two(uni)) continue;
                uint32_t keep = ~(((uint32_t)1 << fd[i]) | ((uint32_t)1 << fd[j]));
                int any = 0;
                CS_FOR(c, uni, {
                    for (uint32_t e = s->cands[c] & keep; e; e &= e - 1) {
                        int d = ctz64(e);
                        s->elim[d] = cs_or(s->elim[d], cs_bit(c));
                        any = 1;
                    }
                });
                if (any) return 1;
            }
    }
    return 0;
}

/* A forcing-net contradiction inside (forcing.forcing_net_inside): the first candidate, cells
 * with fewest candidates first, then by index, digits ascending, whose assumption followed with
 * singles and the net's rules breaks the grid goes.  Each assumption is one unit of s->nest's
 * budget; once that is spent, the rule stops and says so. */
static int rule_inner(settle_state_t *s)
{
    const tables_t *t = s->t;
    settle_nest_t *nest = s->nest;
    for (int k = 0; k <= t->n; k++)
        CS_FOR(c, s->empty, {
            if (pop64(s->cands[c]) != k) continue;
            for (uint32_t m = s->cands[c]; m; m &= m - 1) {
                if (nest->spent || budget_spent(&nest->budget, nest->settles)) {
                    nest->spent = 1;
                    return 0;
                }
                nest->settles++;
                int d = ctz64(m);
                settle_state_t trial = *s;
                long steps;
                if (shudu_run_settle(&trial, c, d + 1, 1, 0, 4, &steps) == S_BROKEN) {
                    s->elim[d] = cs_bit(c);
                    s->inner++;
                    return 1;
                }
            }
        });
    return 0;
}

void shudu_settle_place(settle_state_t *s, int cell, int digit) { place(s, cell, digit); }

int shudu_settle_rule(settle_state_t *s, int r)
{
    memset(s->elim, 0, sizeof s->elim);
    switch (r) {
    case 0: return rule_locked(s, 0);
    case 1: return rule_locked(s, 1);
    case 2: return rule_naked_pair(s);
    case 3: return rule_hidden_pair(s);
    default: return rule_inner(s);
    }
}

int shudu_first_contradiction(settle_state_t *s, int *cell, int *digit)
{
    for (int d = 0; d < s->t->n; d++) s->elim[d] = (cset){0, 0};
    if (!rule_inner(s)) return 0;
    for (int d = 0; d < s->t->n; d++)
        if (cs_any(s->elim[d])) {
            *cell = cs_low(s->elim[d]);
            *digit = d + 1;
            return 1;
        }
    return 0;
}

/* The loop of propagate.settle; *steps gets the count. */
int shudu_run_settle(settle_state_t *s, int start_cell, int start_digit, int quiet, long limit,
                      int nrules, long *steps)
{
    const tables_t *t = s->t;
    int nh = t->nhouses;
    uint32_t full = (uint32_t)((1u << t->n) - 1);
    if (quiet) {
        s->dcells = (cset){0, 0};
        s->hdirty = 0;
        memset(s->dh, 0, sizeof s->dh);
    } else {
        s->dcells = s->empty;
        s->hdirty = nh == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nh) - 1;
        for (int h = 0; h < nh; h++) s->dh[h] = full;
    }
    if (start_cell >= 0) place(s, start_cell, start_digit);
    long count = 0;
    uint8_t fdig[S_MAX_CELLS];
    uint8_t fcell[S_MAX_CELLS], fdgt[S_MAX_CELLS];
    memset(fdig, 0, sizeof fdig);
    for (;;) {
        int nfound = 0, clash = 0;
        while (cs_any(s->dcells)) {
            int cell = cs_low(s->dcells);
            cs_clear(&s->dcells, cell);
            if (!cs_has(s->empty, cell)) continue;
            uint32_t mask = s->cands[cell];
            if (!mask) goto broken;
            if (!(mask & (mask - 1))) {
                fdig[cell] = fdgt[nfound] = (uint8_t)(ctz64(mask) + 1);
                fcell[nfound++] = (uint8_t)cell;
            }
        }
        while (s->hdirty) {
            int h = ctz64(s->hdirty);
            s->hdirty &= s->hdirty - 1;
            cset hbits = t->house[h];
            uint32_t ds = s->dh[h] & ~s->placed[h];
            s->dh[h] = 0;
            for (; ds; ds &= ds - 1) {
                int d = ctz64(ds);
                cset spots = cs_and(s->where[d], hbits);
                if (!cs_any(spots)) goto broken;
                if (!cs_many(spots)) {
                    int cell = cs_low(spots);
                    if (!fdig[cell]) {
                        fdig[cell] = fdgt[nfound] = (uint8_t)(d + 1);
                        fcell[nfound++] = (uint8_t)cell;
                    } else if (fdig[cell] != d + 1) {
                        clash = 1;
                    }
                }
            }
        }
        if (clash) {
            count += nfound;
            goto broken;
        }
        if (nfound) {
            count += nfound;
            for (int i = 0; i < nfound; i++) fdig[fcell[i]] = 0;
            for (int i = 0; i < nfound; i++) {
                int cell = fcell[i], digit = fdgt[i];
                if (!(s->cands[cell] >> (digit - 1) & 1)) goto broken; /* two singles clash */
                place(s, cell, digit);
            }
            if (limit && count >= limit) {
                *steps = -1;
                return S_STOPPED;
            }
            continue;
        }
        {
            int hit = 0;
            for (int r = 0; r < nrules && !hit; r++) hit = shudu_settle_rule(s, r);
            if (!hit && nrules > 4 && s->nest->spent) {
                *steps = -1;
                return S_STOPPED;
            }
            if (!hit) {
                *steps = count;
                return S_SETTLED;
            }
            for (int d = 0; d < t->n; d++) {
                uint32_t dbit = (uint32_t)1 << d;
                CS_FOR(cell, s->elim[d], {
                    if (s->cands[cell] & dbit) {
                        s->cands[cell] &= ~dbit;
                        cs_clear(&s->where[d], cell);
                        s->dcells = cs_or(s->dcells, cs_bit(cell));
                        for (int j = 0; j < t->nch[cell]; j++) s->dh[t->ch[cell][j]] |= dbit;
                        s->hdirty |= t->hmask[cell];
                    }
                });
            }
            count += 1;
            if (limit && count >= limit) {
                *steps = -1;
                return S_STOPPED;
            }
        }
    }
broken:
    *steps = count;
    return S_BROKEN;
}

/* ------------------------------------------------------------------------ */
/* The Python entry point                                                   */
/* ------------------------------------------------------------------------ */

static int read_small(PyObject *list, Py_ssize_t i, long top, const char *what, uint32_t *out)
{
    long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > top) {
        PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int set_item(PyObject *list, Py_ssize_t i, PyObject *value)
{
    if (!value) return -1;
    PyList_SetItem(list, i, value); /* steals the reference; i is in range */
    return 0;
}

/* The grid of a call (cands, where, placed, values, empty: the fields of a CandidateGrid) read
 * into s, with a copy of what may change so that store_grid writes back only that. */
typedef struct {
    uint32_t cands[S_MAX_CELLS], placed[S_MAX_HOUSES];
    cset where[S_MAX_DIGITS];
} saved_t;

static int load_grid(settle_state_t *s, const tables_t *t, PyObject *const *grid, saved_t *saved)
{
    PyObject *cands = grid[0], *where = grid[1], *placed = grid[2], *values = grid[3];
    int nc = t->ncells, n = t->n, nh = t->nhouses;
    if (!PyList_Check(cands) || PyList_GET_SIZE(cands) != nc || !PyList_Check(where) ||
        PyList_GET_SIZE(where) != n || !PyList_Check(placed) || PyList_GET_SIZE(placed) != nh ||
        !PyList_Check(values) || PyList_GET_SIZE(values) != nc) {
        PyErr_SetString(PyExc_ValueError, "the grid does not match the tables");
        return -1;
    }
    s->t = t;
    s->inner = 0;
    s->nest = NULL;
    uint32_t full = (uint32_t)((1u << n) - 1);
    for (int c = 0; c < nc; c++) {
        if (read_small(cands, c, full, "a cell's candidates", &s->cands[c])) return -1;
        s->values[c] = 0;
    }
    for (int h = 0; h < nh; h++)
        if (read_small(placed, h, full, "a house's placed digits", &s->placed[h])) return -1;
    for (int d = 0; d < n; d++)
        if (shudu_get_cset(PyList_GET_ITEM(where, d), nc, &s->where[d])) return -1;
    if (shudu_get_cset(grid[4], nc, &s->empty)) return -1;
    if (saved) {
        memcpy(saved->cands, s->cands, sizeof(uint32_t) * (size_t)nc);
        memcpy(saved->placed, s->placed, sizeof(uint32_t) * (size_t)nh);
        memcpy(saved->where, s->where, sizeof(cset) * (size_t)n);
    }
    return 0;
}

int shudu_load_settle_state(settle_state_t *s, const tables_t *t, PyObject *const *grid)
{
    return load_grid(s, t, grid, NULL);
}

/* Write back what changed (values: the cells placed here); the new empty set, or NULL. */
static PyObject *store_grid(const settle_state_t *s, PyObject *const *grid, const saved_t *saved)
{
    PyObject *cands = grid[0], *where = grid[1], *placed = grid[2], *values = grid[3];
    const tables_t *t = s->t;
    for (int c = 0; c < t->ncells; c++) {
        if (s->cands[c] != saved->cands[c] &&
            set_item(cands, c, PyLong_FromUnsignedLong(s->cands[c])))
            return NULL;
        if (s->values[c] && set_item(values, c, PyLong_FromLong(s->values[c]))) return NULL;
    }
    for (int h = 0; h < t->nhouses; h++)
        if (s->placed[h] != saved->placed[h] &&
            set_item(placed, h, PyLong_FromUnsignedLong(s->placed[h])))
            return NULL;
    for (int d = 0; d < t->n; d++)
        if (!cs_eq(s->where[d], saved->where[d]) && set_item(where, d, shudu_from_cset(s->where[d])))
            return NULL;
    return shudu_from_cset(s->empty);
}

PyObject *shudu_settle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "settle takes 11 arguments");
        return NULL;
    }
    tables_t *t = (tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    int nc = t->ncells, n = t->n;
    long start_cell = PyLong_AsLong(args[6]), start_digit = PyLong_AsLong(args[7]);
    int quiet = PyObject_IsTrue(args[8]);
    long limit = PyLong_AsLong(args[9]), nrules = PyLong_AsLong(args[10]);
    if (PyErr_Occurred() || quiet < 0) return NULL;
    if (start_cell >= nc || (start_cell >= 0 && (start_digit < 1 || start_digit > n)) ||
        nrules < 0 || nrules > 4 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "settle: start, limit or rules out of range");
        return NULL;
    }
    settle_state_t s;
    saved_t saved;
    if (load_grid(&s, t, args + 1, &saved)) return NULL;
    long steps = 0;
    int code = shudu_run_settle(&s, (int)start_cell, (int)start_digit, quiet, limit, (int)nrules, &steps);
    PyObject *empty = store_grid(&s, args + 1, &saved);
    if (!empty) return NULL;
    return Py_BuildValue("(ilN)", code, steps, empty);
}

/* start(tables, values) -> (cands, where, placed, empty): the grid of some placed digits, for
 * shudu.logic.propagate.start_grid (shudu.logic.grid.start_py is the specification): each
 * house's placed digits; an open cell holds every digit its houses do not; a digit's places
 * are the open cells outside the houses that hold it. */
PyObject *shudu_start(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "start takes 2 arguments");
        return NULL;
    }
    tables_t *t = (tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    int nc = t->ncells, n = t->n, nh = t->nhouses;
    PyObject *values = args[1];
    if (!PyList_Check(values) || PyList_GET_SIZE(values) != nc) {
        PyErr_SetString(PyExc_ValueError, "start: the values do not match the tables");
        return NULL;
    }
    uint32_t value[S_MAX_CELLS], placed[S_MAX_HOUSES] = {0};
    cset empty = {0, 0}, blocked[S_MAX_DIGITS];
    memset(blocked, 0, sizeof blocked);
    for (int c = 0; c < nc; c++) {
        if (read_small(values, c, n, "a cell's value", &value[c])) return NULL;
        if (!value[c]) {
            empty = cs_or(empty, cs_bit(c));
            continue;
        }
        for (int k = 0; k < t->nch[c]; k++) placed[t->ch[c][k]] |= 1u << (value[c] - 1);
    }
    for (int h = 0; h < nh; h++)
        for (uint32_t digits = placed[h]; digits; digits &= digits - 1) {
            int d = ctz64(digits);
            blocked[d] = cs_or(blocked[d], t->house[h]);
        }
    uint32_t full = (uint32_t)((1u << n) - 1);
    PyObject *cands = PyList_New(nc), *where = PyList_New(n), *held = PyList_New(nh);
    if (!cands || !where || !held) goto fail;
    for (int c = 0; c < nc; c++) {
        uint32_t seen = 0;
        if (!value[c])
            for (int k = 0; k < t->nch[c]; k++) seen |= placed[t->ch[c][k]];
        if (set_item(cands, c, PyLong_FromUnsignedLong(value[c] ? 0 : full & ~seen))) goto fail;
    }
    for (int d = 0; d < n; d++)
        if (set_item(where, d, shudu_from_cset(cs_andnot(empty, blocked[d])))) goto fail;
    for (int h = 0; h < nh; h++)
        if (set_item(held, h, PyLong_FromUnsignedLong(placed[h]))) goto fail;
    return Py_BuildValue("(NNNN)", cands, where, held, shudu_from_cset(empty));
fail:
    Py_XDECREF(cands);
    Py_XDECREF(where);
    Py_XDECREF(held);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Rounds of singles (shudu.logic.singles_rounds)                           */
/* ------------------------------------------------------------------------ */

enum { K_FULL_HOUSE = 0, K_NAKED = 1, K_HIDDEN = 2, K_BOX = 3, K_HIDDEN_ONE = 4, K_KINDS = 5 };

/* One placement found for a round: kept once; a second digit for the same cell, or a digit
 * twice among peers, is a clash (-1). */
static int add_single(int cell, int digit, uint8_t *fdig, cset *by_digit, const tables_t *t,
                      uint8_t *cells, uint8_t *digits, int *count)
{
    if (fdig[cell]) return fdig[cell] == digit ? 0 : -1;
    if (cs_any(cs_and(by_digit[digit - 1], t->peer[cell]))) return -1;
    fdig[cell] = (uint8_t)digit;
    by_digit[digit - 1] = cs_or(by_digit[digit - 1], cs_bit(cell));
    cells[*count] = (uint8_t)cell;
    digits[*count] = (uint8_t)digit;
    (*count)++;
    return 0;
}

/* Every single of one kind on the grid as it stands (the steps of the kind's finder in
 * shudu.logic.singles): their count, or -1 when two of them clash. */
static int singles_of(const settle_state_t *s, int kind, uint8_t *cells, uint8_t *digits)
{
    const tables_t *t = s->t;
    uint8_t fdig[S_MAX_CELLS];
    cset by_digit[S_MAX_DIGITS];
    memset(fdig, 0, sizeof fdig);
    memset(by_digit, 0, sizeof by_digit);
    int count = 0;
    if (kind == K_FULL_HOUSE) {
        /* a house with one open cell, whose one candidate is the digit the house lacks */
        for (int h = 0; h < t->nhouses; h++) {
            cset open = cs_and(t->house[h], s->empty);
            if (!cs_any(open) || cs_many(open)) continue;
            int cell = cs_low(open);
            uint32_t mask = s->cands[cell];
            if (mask && !(mask & (mask - 1)) &&
                add_single(cell, ctz64(mask) + 1, fdig, by_digit, t, cells, digits, &count))
                return -1;
        }
    } else if (kind == K_NAKED) {
        CS_FOR(cell, s->empty, {
            uint32_t mask = s->cands[cell];
            if (mask && !(mask & (mask - 1)) &&
                add_single(cell, ctz64(mask) + 1, fdig, by_digit, t, cells, digits, &count))
                return -1;
        });
    } else {
        /* a digit with one place in a house (of every house, or of the boxes and regions) */
        for (int h = 0; h < t->nhouses; h++) {
            if (kind == K_BOX && !(t->boxlike >> h & 1)) continue;
            cset hbits = t->house[h];
            if (!cs_any(cs_and(hbits, s->empty))) continue;
            for (int d = 0; d < t->n; d++) {
                cset spots = cs_and(s->where[d], hbits);
                if (cs_any(spots) && !cs_many(spots) &&
                    add_single(cs_low(spots), d + 1, fdig, by_digit, t, cells, digits, &count))
                    return -1;
            }
        }
    }
    return count;
}

/* How many cells full houses and naked singles fill after ``digit`` is placed in ``cell``
 * (``trial`` changed): every cell when two of them clash. */
static int easier_fill(settle_state_t *trial, int cell, int digit)
{
    uint8_t cells[S_MAX_CELLS], digits[S_MAX_CELLS];
    int filled = 0;
    place(trial, cell, digit);
    while (cs_any(trial->empty)) {
        int found = singles_of(trial, K_FULL_HOUSE, cells, digits);
        if (!found) found = singles_of(trial, K_NAKED, cells, digits);
        if (found < 0) return trial->t->ncells;
        if (!found) break;
        for (int i = 0; i < found; i++) place(trial, cells[i], digits[i]);
        filled += found;
    }
    return filled;
}

/* The hidden singles a K_HIDDEN_ONE round places (singles_rounds.hidden_one): of those that
 * have waited longest (``since``: the round each was first listed in, 0 for never; ``stamp``:
 * the last round), the ones after which full houses and naked singles fill the most cells,
 * one for each grid those leave (the lowest cell).  Their count, or -1 when two clash. */
static int hidden_one(const settle_state_t *s, uint32_t *since, uint32_t *stamp, uint8_t *cells,
                      uint8_t *digits)
{
    int found = singles_of(s, K_HIDDEN, cells, digits);
    if (found <= 0) return found;
    int n = s->t->n;
    uint32_t now = ++*stamp, first = UINT32_MAX;
    for (int i = 0; i < found; i++) {
        uint32_t *w = &since[cells[i] * n + digits[i] - 1];
        if (!*w) *w = now;
        if (*w < first) first = *w;
    }
    uint8_t rc[S_MAX_CELLS], rd[S_MAX_CELLS];
    cset left[S_MAX_CELLS];
    int best = -1, reps = 0;
    settle_state_t *trial = PyMem_Malloc(sizeof *trial);
    if (!trial) return -2;
    for (int i = 0; i < found; i++) {
        if (since[cells[i] * n + digits[i] - 1] != first) continue;
        memcpy(trial, s, sizeof *trial);
        int fill = easier_fill(trial, cells[i], digits[i]);
        if (fill < best) continue;
        if (fill > best) {
            best = fill;
            reps = 0;
        }
        int g = 0;
        while (g < reps && !cs_eq(left[g], trial->empty)) g++;
        if (g == reps) left[reps++] = trial->empty;
        else if (rc[g] < cells[i]) continue;
        rc[g] = cells[i];
        rd[g] = digits[i];
    }
    PyMem_Free(trial);
    memcpy(cells, rc, (size_t)reps);
    memcpy(digits, rd, (size_t)reps);
    return reps;
}

enum { R_SETTLED = 0, R_CLASH = 1, R_ROUNDS = 2 };

PyObject *shudu_singles(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "singles takes 10 arguments");
        return NULL;
    }
    tables_t *t = (tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    char *kinds;
    Py_ssize_t nkinds;
    if (PyBytes_AsStringAndSize(args[6], &kinds, &nkinds)) return NULL;
    long max_rounds = PyLong_AsLong(args[7]);
    if (max_rounds == -1 && PyErr_Occurred()) return NULL;
    if (nkinds < 1 || nkinds > K_KINDS || max_rounds < 0) {
        PyErr_SetString(PyExc_ValueError, "singles: kinds or rounds out of range");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkinds; i++)
        if ((unsigned char)kinds[i] >= K_KINDS) {
            PyErr_SetString(PyExc_ValueError, "singles: unknown kind");
            return NULL;
        }
    long stamp_in = PyLong_AsLong(args[9]);
    if (stamp_in == -1 && PyErr_Occurred()) return NULL;
    Py_buffer waiting = {0};
    int one = memchr(kinds, K_HIDDEN_ONE, (size_t)nkinds) != NULL;
    if (one) {
        if (PyObject_GetBuffer(args[8], &waiting, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)) return NULL;
        if (waiting.len != (Py_ssize_t)(sizeof(uint32_t) * (size_t)t->ncells * (size_t)t->n) ||
            stamp_in < 0 || stamp_in >= (long)UINT32_MAX - t->ncells) {
            PyBuffer_Release(&waiting);
            PyErr_SetString(PyExc_ValueError, "singles: waiting buffer or rounds out of range");
            return NULL;
        }
    }
    uint32_t stamp = (uint32_t)stamp_in;
    settle_state_t s;
    saved_t saved;
    if (load_grid(&s, t, args + 1, &saved)) {
        if (one) PyBuffer_Release(&waiting);
        return NULL;
    }
    /* two bytes a round: the kind's position in kinds, and how many singles it placed */
    uint8_t log[2 * S_MAX_CELLS];
    int nrounds = 0, code = R_SETTLED;
    uint8_t cells[S_MAX_CELLS], digits[S_MAX_CELLS];
    while (cs_any(s.empty)) {
        if (max_rounds && nrounds >= max_rounds) {
            code = R_ROUNDS;
            break;
        }
        int found = 0, k = 0;
        for (; k < nkinds; k++) {
            if (kinds[k] == K_HIDDEN_ONE)
                found = hidden_one(&s, (uint32_t *)waiting.buf, &stamp, cells, digits);
            else
                found = singles_of(&s, (unsigned char)kinds[k], cells, digits);
            if (found) break;
        }
        if (found == -2) {
            PyBuffer_Release(&waiting);
            return PyErr_NoMemory();
        }
        if (found < 0) {
            code = R_CLASH;
            break;
        }
        if (!found) break;
        for (int i = 0; i < found; i++) place(&s, cells[i], digits[i]);
        log[2 * nrounds] = (uint8_t)k;
        log[2 * nrounds + 1] = (uint8_t)found;
        nrounds++; /* each round fills a cell: at most ncells rounds */
    }
    if (one) PyBuffer_Release(&waiting);
    PyObject *empty = store_grid(&s, args + 1, &saved);
    if (!empty) return NULL;
    return Py_BuildValue("(iNy#k)", code, empty, (const char *)log, (Py_ssize_t)(2 * nrounds),
                         (unsigned long)stamp);
}

/* ------------------------------------------------------------------------ */
/* Patterns of the basic techniques (shudu.logic.intersections, subsets)    */
/* ------------------------------------------------------------------------ */

/* The grid's lists, read without a copy to restore: the pattern finders change nothing. */
static int read_grid(settle_state_t *s, const tables_t *t, PyObject *const *grid)
{
    saved_t unused;
    return load_grid(s, t, grid, &unused);
}

/* locked(tables, cands, where, placed, values, empty, pointing)
 *   -> [(rank, digit index, a, b, inside, out)], in the order of intersections.locked */
PyObject *shudu_locked(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "locked takes 7 arguments");
        return NULL;
    }
    tables_t *t = (tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    int pointing = PyObject_IsTrue(args[6]);
    if (pointing < 0) return NULL;
    settle_state_t s;
    if (read_grid(&s, t, args + 1)) return NULL;
    int kind = pointing ? 0 : 1;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    typedef struct {
        int rank, d, k;
        cset inside, rest;
    } hit_t;
    hit_t hits[S_MAX_DIGITS * 64];
    int nhits = 0;
    for (int g = 0; g < t->ngroups[kind]; g++) {
        const group_t *grp = &t->groups[kind][g];
        for (int d = 0; d < t->n; d++) {
            cset w = s.where[d];
            cset inside = cs_and(w, grp->abits);
            if (!cs_many(inside)) continue;
            for (int k = grp->first; k < grp->end; k++) {
                const overlap_t *o = &t->ov[k];
                if (cs_any(cs_and(inside, o->outside))) continue;
                cset rest = cs_and(w, o->rest);
                if (!cs_any(rest)) continue;
                if (nhits == (int)(sizeof hits / sizeof hits[0])) goto flush;
                hits[nhits++] = (hit_t){o->index, d, k, inside, rest};
            }
        }
    }
    /* insertion sort by (rank, digit): few hits */
    for (int i = 1; i < nhits; i++) {
        hit_t x = hits[i];
        int j = i - 1;
        while (j >= 0 && (hits[j].rank > x.rank || (hits[j].rank == x.rank && hits[j].d > x.d))) {
            hits[j + 1] = hits[j];
            j--;
        }
        hits[j + 1] = x;
    }
    for (int i = 0; i < nhits; i++) {
        const overlap_t *o = &t->ov[hits[i].k];
        PyObject *item = Py_BuildValue("(iiiiNN)", hits[i].rank, hits[i].d, o->a, o->b,
                                       shudu_from_cset(hits[i].inside), shudu_from_cset(hits[i].rest));
        if (!item || PyList_Append(out, item)) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
flush: /* more patterns than the buffer holds (a grid no solver meets): Python lists them */
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* The next combination of k indices below n (idx ascending); 0 when there is none. */
static int next_combo(int *idx, int k, int n)
{
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) i--;
    if (i < 0) return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}

/* Whether a naked subset of k cells sharing the houses `common`, with `reach` the cells outside
 * it that hold one of its digits, is locked (subsets._locked): a pair or triple, a box-like
 * house among `common` loses a digit, and so does another of them outside that box. */
static int locked_subset(const tables_t *t, long k, uint64_t common, cset reach)
{
    if (k > 3 || pop64(common) < 2) return 0;
    for (uint64_t b = common & t->boxlike; b; b &= b - 1) {
        cset box = t->house[ctz64(b)];
        if (!cs_any(cs_and(reach, box))) continue;
        for (uint64_t g = common & ~(b & -b); g; g &= g - 1)
            if (cs_any(cs_andnot(cs_and(reach, t->house[ctz64(g)]), box))) return 1;
    }
    return 0;
}

/* subsets(tables, cands, where, placed, values, empty, k, mode) -> patterns in the order of
 * shudu.logic.subsets: mode 0 naked (not locked), 1 naked and locked: [(house, cells, digits)];
 * mode 2 hidden: [(house, cells, digits)] (digits a mask, cells a cell set); None when a
 * grid has more subsets than the buffers hold */
PyObject *shudu_subsets(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "subsets takes 8 arguments");
        return NULL;
    }
    tables_t *t = (tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    long k = PyLong_AsLong(args[6]), mode = PyLong_AsLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    if (k < 1 || k > 4 || mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "subsets: k or mode out of range");
        return NULL;
    }
    settle_state_t s;
    if (read_grid(&s, t, args + 1)) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    /* the patterns already given (naked: their cells; hidden: cells and digits) */
    cset seen_cells[4 * S_MAX_HOUSES];
    uint32_t seen_digits[4 * S_MAX_HOUSES];
    int nseen = 0;
    int idx[4];
    for (int h = 0; h < t->nhouses; h++) {
        cset hbits = t->house[h];
        cset open = cs_and(hbits, s.empty);
        if (cs_pop(open) <= k) continue;
        int item[S_MAX_CELLS], n = 0;
        if (mode < 2) {
            CS_FOR(c, open, {
                if (pop64(s.cands[c]) <= k) item[n++] = c;
            });
        } else {
            for (int d = 0; d < t->n; d++) {
                cset spots = cs_and(s.where[d], hbits);
                if (cs_any(spots) && cs_pop(spots) <= k) item[n++] = d;
            }
        }
        if (n < k) continue;
        for (int i = 0; i < k; i++) idx[i] = i;
        do {
            cset cells = {0, 0};
            uint32_t digits = 0;
            if (mode < 2) {
                for (int i = 0; i < k; i++) {
                    cells = cs_or(cells, cs_bit(item[idx[i]]));
                    digits |= s.cands[item[idx[i]]];
                }
                if (pop64(digits) != k) continue;
            } else {
                for (int i = 0; i < k; i++) {
                    digits |= (uint32_t)1 << item[idx[i]];
                    cells = cs_or(cells, cs_and(s.where[item[idx[i]]], hbits));
                }
                if (cs_pop(cells) != k) continue;
            }
            int dup = 0;
            for (int i = 0; i < nseen && !dup; i++)
                dup = cs_eq(seen_cells[i], cells) && (mode < 2 || seen_digits[i] == digits);
            if (dup) continue;
            int any = 0;
            if (mode < 2) {
                uint64_t common = ~(uint64_t)0;
                CS_FOR(c, cells, { common &= t->hmask[c]; });
                cset reach = {0, 0};
                for (uint32_t u = digits; u; u &= u - 1) reach = cs_or(reach, s.where[ctz64(u)]);
                reach = cs_andnot(reach, cells);
                if (locked_subset(t, k, common, reach) != (mode == 1)) continue;
                cset shared = {0, 0};
                for (uint64_t g = common; g; g &= g - 1) shared = cs_or(shared, t->house[ctz64(g)]);
                any = cs_any(cs_and(reach, shared));
            } else {
                CS_FOR(c, cells, { any |= (s.cands[c] & ~digits) != 0; });
            }
            if (nseen == (int)(sizeof seen_cells / sizeof seen_cells[0])) {
                /* more subsets than the buffer holds (a grid no solver meets): Python lists them */
                Py_DECREF(out);
                Py_RETURN_NONE;
            }
            seen_cells[nseen] = cells;
            seen_digits[nseen++] = digits;
            if (!any) continue;
            PyObject *found = Py_BuildValue("(iNk)", h, shudu_from_cset(cells), (unsigned long)digits);
            if (!found || PyList_Append(out, found)) {
                Py_XDECREF(found);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(found);
        } while (next_combo(idx, (int)k, n));
    }
    return out;
}
