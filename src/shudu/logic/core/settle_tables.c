/*
 * The logic engine's tables and grids at the Python boundary: a geometry's tables built once
 * (settle_tables, kept by the caller in a capsule), cell sets to and from Python ints, a
 * CandidateGrid's lists read into a settle state and written back, and the grid of some placed
 * digits (start).  The loops that use them: settle.c, singles.c, patterns.c, forcing.c and the
 * other files of logic/core/.
 *
 * Cell sets are two 64-bit words (up to 128 cells: every 9x9 geometry), house sets one word
 * (up to 64 houses), digit sets 32 bits (up to 16 digits).
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

/* The houses (house_bits, boxlike) into t; box[h]: whether house h is a box or region. */
static int read_houses(tables_t *t, PyObject *house_bits, PyObject *boxlike, int *box)
{
    for (Py_ssize_t h = 0; h < t->nhouses; h++) {
        if (shudu_get_cset(PySequence_Fast_GET_ITEM(house_bits, h), t->ncells, &t->house[h])) return -1;
        int b = PyObject_IsTrue(PySequence_Fast_GET_ITEM(boxlike, h));
        if (b < 0) return -1;
        box[h] = b;
        if (b) t->boxlike |= (uint64_t)1 << h;
    }
    return 0;
}

/* Each cell's peers (peer_bits) and houses (cell_houses, in rising order) into t. */
static int read_cells(tables_t *t, PyObject *peer_bits, PyObject *cell_houses)
{
    int nc = t->ncells, nh = t->nhouses;
    for (Py_ssize_t c = 0; c < nc; c++) {
        if (shudu_get_cset(PySequence_Fast_GET_ITEM(peer_bits, c), nc, &t->peer[c])) return -1;
        PyObject *hs = PySequence_Fast_GET_ITEM(cell_houses, c);
        if (seq_len(hs, -1, "a cell's houses")) return -1;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(hs);
        if (k > S_MAX_CELL_HOUSES) {
            PyErr_SetString(PyExc_ValueError, "a cell has too many houses for the C propagation");
            return -1;
        }
        t->nch[c] = (int)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            long h = PyLong_AsLong(PySequence_Fast_GET_ITEM(hs, j));
            if (h == -1 && PyErr_Occurred()) return -1;
            if (h < 0 || h >= nh) {
                PyErr_SetString(PyExc_ValueError, "house index out of range");
                return -1;
            }
            if (j > 0 && h <= t->ch[c][j - 1]) { /* the searches meet them in this order */
                PyErr_SetString(PyExc_ValueError, "a cell's houses must be listed in rising order");
                return -1;
            }
            t->ch[c][j] = (uint8_t)h;
            t->hmask[c] |= (uint64_t)1 << h;
        }
    }
    return 0;
}

/* Per cell, the cells it forms a locked pair with: two houses in common, one a box or region. */
static void find_locked(tables_t *t, const int *box)
{
    int nc = t->ncells, nh = t->nhouses;
    for (int a = 0; a < nc; a++)
        for (int b = 0; b < nc; b++) {
            uint64_t common = t->hmask[a] & t->hmask[b];
            int anybox = 0;
            for (int h = 0; h < nh; h++)
                if (common >> h & 1 && box[h]) anybox = 1;
            if (a != b && pop64(common) >= 2 && anybox) t->locked[a] = cs_or(t->locked[a], cs_bit(b));
        }
}

/* The overlaps a -> b into t->ov, split by kind of a and grouped by a in order of first
 * appearance (the overlap list comes grouped by a). */
static int read_overlaps(tables_t *t, PyObject *overlaps, const int *box)
{
    int nc = t->ncells, nh = t->nhouses;
    Py_ssize_t nov = PySequence_Fast_GET_SIZE(overlaps);
    int k = 0;
    for (int kind = 0; kind < 2; kind++) {
        int last = -1;
        for (Py_ssize_t i = 0; i < nov; i++) {
            PyObject *o = PySequence_Fast_GET_ITEM(overlaps, i);
            if (seq_len(o, 3, "an overlap")) return -1;
            long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(o, 0));
            long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(o, 1));
            cset inter;
            if (PyErr_Occurred() || shudu_get_cset(PySequence_Fast_GET_ITEM(o, 2), nc, &inter))
                return -1;
            if (a < 0 || a >= nh || b < 0 || b >= nh) {
                PyErr_SetString(PyExc_ValueError, "house index out of range");
                return -1;
            }
            if ((box[a] ? 0 : 1) != kind) continue;
            if (a != last) {
                for (int g = 0; g < t->ngroups[kind]; g++)
                    if (cs_eq(t->groups[kind][g].abits, t->house[a]) && g != t->ngroups[kind] - 1) {
                        PyErr_SetString(PyExc_ValueError, "the overlaps must come grouped by house");
                        return -1;
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
    return 0;
}

const tables_t *shudu_call_tables(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want,
                                  const char *name)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments", name, want);
        return NULL;
    }
    return (const tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
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
    if (read_houses(t, house_bits, boxlike, box) || read_cells(t, peer_bits, cell_houses))
        goto fail;
    find_locked(t, box);
    if (read_overlaps(t, overlaps, box)) goto fail;
    PyObject *capsule = PyCapsule_New(t, S_CAPSULE, tables_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    free(t->ov);
    free(t);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* A CandidateGrid's lists read and written                                 */
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
 * into s, with a copy of what may change so that shudu_store_grid writes back only that. */
int shudu_load_grid(settle_state_t *s, const tables_t *t, PyObject *const *grid, saved_t *saved)
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
    return shudu_load_grid(s, t, grid, NULL);
}

/* Write back what changed (values: the cells placed here); the new empty set, or NULL. */
PyObject *shudu_store_grid(const settle_state_t *s, PyObject *const *grid, const saved_t *saved)
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

/* start(tables, values) -> (cands, where, placed, empty): the grid of some placed digits, for
 * shudu.logic.engine.propagate.start_grid (shudu.logic.engine.grid.start_py is the specification): each
 * house's placed digits; an open cell holds every digit its houses do not; a digit's places
 * are the open cells outside the houses that hold it. */
PyObject *shudu_start(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 2, "start");
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
