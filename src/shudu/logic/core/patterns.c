/*
 * The patterns of the basic techniques in C: locked candidates (shudu.logic.techniques.intersections) and
 * naked, locked and hidden subsets (shudu.logic.techniques.subsets), in the order the Python finders list
 * them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "settle.h"
#include "settle_tables.h"

/* The grid's lists, read without a copy to restore: the pattern finders change nothing. */
static int read_grid(settle_state_t *s, const tables_t *t, PyObject *const *grid)
{
    saved_t unused;
    return shudu_load_grid(s, t, grid, &unused);
}

/* locked(tables, cands, where, placed, values, empty, pointing)
 *   -> [(rank, digit index, a, b, inside, out)], in the order of intersections.locked */
PyObject *shudu_locked(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 7, "locked");
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
 * shudu.logic.techniques.subsets: mode 0 naked (not locked), 1 naked and locked: [(house, cells, digits)];
 * mode 2 hidden: [(house, cells, digits)] (digits a mask, cells a cell set); None when a
 * grid has more subsets than the buffers hold */
PyObject *shudu_subsets(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 8, "subsets");
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
