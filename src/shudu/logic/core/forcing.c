/*
 * The forcing chains and nets (shudu.logic.techniques.forcing._found_py, the specification) in C.
 *
 * Every candidate of the grid is assumed in turn and followed with the settle loop (singles,
 * and the first nrules rules of the forcing nets).  An assumption that breaks the grid is
 * false: the call returns those that break it in the fewest deductions, in the order the cells
 * are tried (fewest candidates first, then by index; digits ascending).  While one is known,
 * the others are followed only as far as could still tie it, as the Python code does.  When
 * none breaks the grid (or contradictions are not asked for), each choice (the candidates of a
 * cell, then the places of a digit in a house, in the order of forcing._choices) costs the sum
 * of its assumptions' deductions; of the choices whose outcomes agree on something, those of
 * the lowest cost are returned with what they agree on: the cells every outcome fills with the
 * same digit, else the candidates every outcome removes (and none places).
 *
 * Nothing here calls back into Python or keeps state between calls; the Python caller counts
 * the assumptions against the logic budget before it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "forcing.h"
#include "settle_tables.h"

/* Where one assumption leads. */
typedef struct {
    int code; /* S_SETTLED or S_BROKEN; -1: not followed to its end yet */
    long steps;
    cset empty;
    cset where[S_MAX_DIGITS];
    cset planes[S_MAX_DIGITS]; /* per digit, the cells open before that it filled with it */
} outcome_t;

typedef struct {
    settle_state_t base;
    int n, nc, nrules, quiet;
    outcome_t *out; /* [ncells * n], by cell then digit */
} forcing_t;

/* The outcome of "d in cell", followed up to limit deductions (0: no limit); NULL when it
 * stopped there (then it is not kept, as the Python code keeps no stopped outcome). */
static const outcome_t *follow(forcing_t *f, int cell, int d, long limit)
{
    outcome_t *o = &f->out[(size_t)cell * (size_t)f->n + (size_t)d];
    if (o->code >= 0) return o;
    settle_state_t s = f->base;
    long steps = 0;
    int code = shudu_run_settle(&s, cell, d + 1, f->quiet, limit, f->nrules, &steps);
    if (code == S_STOPPED) return NULL;
    o->code = code;
    o->steps = steps;
    if (code == S_SETTLED) {
        o->empty = s.empty;
        memcpy(o->where, s.where, sizeof(cset) * (size_t)f->n);
        memset(o->planes, 0, sizeof(cset) * (size_t)f->n);
        CS_FOR(c, cs_andnot(f->base.empty, s.empty), {
            int v = s.values[c] - 1;
            o->planes[v] = cs_or(o->planes[v], cs_bit(c));
        });
    }
    return o;
}

/* What the live outcomes agree on (forcing._agreement): cells all fill alike (same, per
 * digit), else candidates all remove (gone, per digit).  0: nothing. */
typedef struct {
    int placements; /* same[] holds the agreement; else gone[] */
    cset same[S_MAX_DIGITS], gone[S_MAX_DIGITS];
} agree_t;

static int agreement(const forcing_t *f, const outcome_t *const *live, int nlive, agree_t *a)
{
    const int n = f->n;
    cset filled = f->base.empty;
    for (int i = 0; i < nlive && cs_any(filled); i++) filled = cs_andnot(filled, live[i]->empty);
    a->placements = 0;
    if (cs_any(filled)) {
        for (int d = 0; d < n; d++) {
            cset same = filled;
            for (int i = 0; i < nlive && cs_any(same); i++) same = cs_and(same, live[i]->planes[d]);
            a->same[d] = same;
            a->placements |= cs_any(same);
        }
        if (a->placements) return 1;
    }
    int any = 0;
    for (int d = 0; d < n; d++) {
        cset gone = f->base.where[d];
        for (int i = 0; i < nlive && cs_any(gone); i++) gone = cs_andnot(gone, live[i]->where[d]);
        for (int i = 0; i < nlive && cs_any(gone); i++) gone = cs_andnot(gone, live[i]->planes[d]);
        a->gone[d] = gone;
        any |= cs_any(gone);
    }
    return any;
}

/* A choice: the candidates of a cell (house < 0), or the places of digit in house. */
typedef struct {
    int cell, house, digit;
} choice_t;

/* The assumptions of a choice, as (cells, digits); their count. */
static int options_of(const forcing_t *f, choice_t ch, int *cells, int *digits)
{
    int count = 0;
    if (ch.house < 0) {
        for (uint32_t m = f->base.cands[ch.cell]; m; m &= m - 1) {
            cells[count] = ch.cell;
            digits[count++] = ctz64(m);
        }
    } else {
        CS_FOR(c, cs_and(f->base.where[ch.digit], f->base.t->house[ch.house]), {
            cells[count] = c;
            digits[count++] = ch.digit;
        });
    }
    return count;
}

/* Follow a choice's assumptions: the live outcomes, their count, and the cost (every
 * assumption's deductions, the broken ones' too) in *cost. */
static int outcomes_of(forcing_t *f, choice_t ch, const outcome_t **live, long *cost)
{
    int cells[S_MAX_CELLS], digits[S_MAX_CELLS];
    int count = options_of(f, ch, cells, digits), nlive = 0;
    *cost = 0;
    for (int i = 0; i < count; i++) {
        const outcome_t *o = follow(f, cells[i], digits[i], 0);
        *cost += o->steps;
        if (o->code == S_SETTLED) live[nlive++] = o;
    }
    return nlive;
}

static int append_pair(PyObject *list, int cell, int digit)
{
    PyObject *item = Py_BuildValue("(ii)", cell, digit);
    if (!item) return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

/* (choice, placements, eliminations) of one agreeing choice. */
static PyObject *verity(forcing_t *f, int index, choice_t ch)
{
    const outcome_t *live[S_MAX_CELLS];
    long cost;
    agree_t a;
    int nlive = outcomes_of(f, ch, live, &cost);
    agreement(f, live, nlive, &a);
    PyObject *placed = PyList_New(0), *gone = PyList_New(0);
    if (!placed || !gone) goto fail;
    if (a.placements) {
        for (int c = 0; c < f->nc; c++)
            for (int d = 0; d < f->n; d++)
                if (cs_has(a.same[d], c) && append_pair(placed, c, d + 1)) goto fail;
    } else {
        for (int d = 0; d < f->n; d++)
            CS_FOR(c, a.gone[d], {
                if (append_pair(gone, c, d + 1)) goto fail;
            });
    }
    return Py_BuildValue("(iNN)", index, placed, gone);
fail:
    Py_XDECREF(placed);
    Py_XDECREF(gone);
    return NULL;
}

/* The open cells, fewest candidates first, then by index (forcing._open_cells). */
static int open_cells(const forcing_t *f, int *order)
{
    int count = 0;
    for (int k = 0; k <= f->n; k++)
        CS_FOR(c, f->base.empty, {
            if (pop64(f->base.cands[c]) == k) order[count++] = c;
        });
    return count;
}

static PyObject *contradictions_of(forcing_t *f, const int *order, int nopen)
{
    long least = -1;
    int *ties = (int *)malloc(sizeof(int) * 2 * (size_t)f->nc * (size_t)f->n);
    if (!ties) return PyErr_NoMemory();
    int nties = 0;
    for (int i = 0; i < nopen; i++) {
        int cell = order[i];
        for (uint32_t m = f->base.cands[cell]; m; m &= m - 1) {
            int d = ctz64(m);
            const outcome_t *o = follow(f, cell, d, least < 0 ? 0 : least + 1);
            if (!o || o->code != S_BROKEN) continue;
            if (least < 0 || o->steps < least) {
                least = o->steps;
                nties = 0;
            }
            if (o->steps == least) {
                ties[2 * nties] = cell;
                ties[2 * nties++ + 1] = d + 1;
            }
        }
    }
    PyObject *result = NULL, *list = NULL;
    if (least < 0) {
        free(ties);
        Py_RETURN_NONE;
    }
    if (!(list = PyList_New(0))) goto done;
    for (int i = 0; i < nties; i++)
        if (append_pair(list, ties[2 * i], ties[2 * i + 1])) {
            Py_CLEAR(list);
            goto done;
        }
    result = Py_BuildValue("(OlN)", Py_True, least, list);
done:
    free(ties);
    return result;
}

static PyObject *verities_of(forcing_t *f, const int *order, int nopen)
{
    const tables_t *t = f->base.t;
    size_t most = (size_t)nopen + (size_t)t->nhouses * (size_t)f->n;
    choice_t *cheapest = (choice_t *)malloc(sizeof(choice_t) * most);
    int *index = (int *)malloc(sizeof(int) * most);
    PyObject *list = NULL, *result = NULL;
    if (!cheapest || !index) {
        PyErr_NoMemory();
        goto done;
    }
    const outcome_t *live[S_MAX_CELLS];
    agree_t a;
    long least_cost = 0;
    int ncheap = 0, at = 0;
    for (int i = 0; i < nopen + t->nhouses * f->n; i++) {
        choice_t ch;
        if (i < nopen) {
            ch = (choice_t){order[i], -1, 0};
        } else {
            int h = (i - nopen) / f->n, d = (i - nopen) % f->n;
            if (!cs_many(cs_and(f->base.where[d], t->house[h]))) continue;
            ch = (choice_t){-1, h, d};
        }
        int me = at++;
        long cost;
        int nlive = outcomes_of(f, ch, live, &cost);
        if (!nlive || (ncheap && cost > least_cost)) continue;
        if (!agreement(f, live, nlive, &a)) continue;
        if (!ncheap || cost < least_cost) {
            ncheap = 0;
            least_cost = cost;
        }
        cheapest[ncheap] = ch;
        index[ncheap++] = me;
    }
    if (!(list = PyList_New(0))) goto done;
    for (int i = 0; i < ncheap; i++) {
        PyObject *item = verity(f, index[i], cheapest[i]);
        if (!item || PyList_Append(list, item)) {
            Py_XDECREF(item);
            Py_CLEAR(list);
            goto done;
        }
        Py_DECREF(item);
    }
    result = Py_BuildValue("(OlN)", Py_False, least_cost, list);
done:
    free(cheapest);
    free(index);
    return result;
}

PyObject *shudu_forcing(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 9, "forcing");
    if (!t) return NULL;
    long nrules = PyLong_AsLong(args[6]);
    int quiet = PyObject_IsTrue(args[7]), contradictions = PyObject_IsTrue(args[8]);
    if (PyErr_Occurred() || quiet < 0 || contradictions < 0) return NULL;
    if (nrules < 0 || nrules > 4) {
        PyErr_SetString(PyExc_ValueError, "forcing: rules out of range");
        return NULL;
    }
    forcing_t *f = (forcing_t *)malloc(sizeof(forcing_t));
    if (!f) return PyErr_NoMemory();
    PyObject *result = NULL;
    int *order = NULL;
    f->out = NULL;
    if (shudu_load_settle_state(&f->base, t, args + 1)) goto done;
    f->n = t->n;
    f->nc = t->ncells;
    f->nrules = (int)nrules;
    f->quiet = quiet;
    size_t slots = (size_t)f->nc * (size_t)f->n;
    f->out = (outcome_t *)malloc(sizeof(outcome_t) * slots);
    order = (int *)malloc(sizeof(int) * (size_t)f->nc);
    if (!f->out || !order) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < slots; i++) f->out[i].code = -1;
    int nopen = open_cells(f, order);
    if (contradictions) {
        result = contradictions_of(f, order, nopen);
        if (result != Py_None) goto done;
        Py_CLEAR(result);
    }
    result = verities_of(f, order, nopen);
done:
    free(order);
    free(f->out);
    free(f);
    return result;
}

PyObject *shudu_nested(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 11, "nested");
    if (!t) return NULL;
    long cell = PyLong_AsLong(args[6]), digit = PyLong_AsLong(args[7]);
    int quiet = PyObject_IsTrue(args[8]);
    double seconds = PyFloat_AsDouble(args[9]);
    long long nodes = PyLong_AsLongLong(args[10]);
    if (PyErr_Occurred() || quiet < 0) return NULL;
    if (cell < 0 || cell >= t->ncells || digit < 1 || digit > t->n) {
        PyErr_SetString(PyExc_ValueError, "nested: the assumption is out of range");
        return NULL;
    }
    settle_state_t s;
    if (shudu_load_settle_state(&s, t, args + 1)) return NULL;
    settle_nest_t nest = {{nodes < 0 ? UINT64_MAX : (uint64_t)nodes,
                           seconds < 0 ? -1.0 : monotonic_seconds() + seconds, 0},
                          0, 0};
    s.nest = &nest;
    long steps = 0;
    int code = shudu_run_settle(&s, (int)cell, (int)digit, quiet, 0, 5, &steps);
    return Py_BuildValue("(illK)", code, steps, s.inner, (unsigned long long)nest.settles);
}

PyObject *shudu_first_contradiction_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 8, "first_contradiction");
    if (!t) return NULL;
    double seconds = PyFloat_AsDouble(args[6]);
    long long nodes = PyLong_AsLongLong(args[7]);
    if (PyErr_Occurred()) return NULL;
    settle_state_t s;
    if (shudu_load_settle_state(&s, t, args + 1)) return NULL;
    settle_nest_t nest = {{nodes < 0 ? UINT64_MAX : (uint64_t)nodes,
                           seconds < 0 ? -1.0 : monotonic_seconds() + seconds, 0},
                          0, 0};
    s.nest = &nest;
    int cell = -1, digit = -1;
    int found = shudu_first_contradiction(&s, &cell, &digit);
    int code = nest.spent ? 2 : found ? 1 : 0;
    if (found) return Py_BuildValue("(iK(ii))", code, (unsigned long long)nest.settles, cell, digit);
    return Py_BuildValue("(iKO)", code, (unsigned long long)nest.settles, Py_None);
}

/* nishio.deductions: how many places digit d takes after cell before following d alone from
 * cell breaks the grid; -1 when it does not. */
static long nishio_count(const tables_t *t, cset plane0, const uint32_t *placed, int cell, int d)
{
    cset taken = cs_bit(cell);
    cset plane = cs_andnot(plane0, cs_or(t->peer[cell], taken));
    uint64_t waiting = 0; /* the houses without d placed that do not hold the cells taken */
    for (int h = 0; h < t->nhouses; h++)
        if (!(placed[h] >> d & 1) && !cs_any(cs_and(t->house[h], taken))) waiting |= (uint64_t)1 << h;
    long count = 0;
    for (;;) {
        cset singles = {0, 0};
        for (uint64_t w = waiting; w; w &= w - 1) {
            cset spots = cs_and(plane, t->house[ctz64(w)]);
            if (!cs_any(spots)) return count; /* a house with no place left for d */
            if (!cs_many(spots)) singles = cs_or(singles, spots);
        }
        if (!cs_any(singles)) return -1;
        CS_FOR(c, singles, {
            if (cs_any(cs_and(t->peer[c], singles))) return count; /* two places see each other */
        });
        count += cs_pop(singles);
        taken = cs_or(taken, singles);
        CS_FOR(c, singles, { plane = cs_andnot(plane, t->peer[c]); });
        plane = cs_andnot(plane, singles);
        for (uint64_t w = waiting; w; w &= w - 1) {
            int h = ctz64(w);
            if (cs_any(cs_and(t->house[h], taken))) waiting &= ~((uint64_t)1 << h);
        }
    }
}

PyObject *shudu_nishio(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 3, "nishio");
    if (!t) return NULL;
    PyObject *where = args[1], *placed = args[2];
    if (!PyList_Check(where) || PyList_GET_SIZE(where) != t->n || !PyList_Check(placed) ||
        PyList_GET_SIZE(placed) != t->nhouses) {
        PyErr_SetString(PyExc_ValueError, "the grid does not match the tables");
        return NULL;
    }
    cset planes[S_MAX_DIGITS];
    uint32_t done[S_MAX_HOUSES];
    for (int d = 0; d < t->n; d++)
        if (shudu_get_cset(PyList_GET_ITEM(where, d), t->ncells, &planes[d])) return NULL;
    for (int h = 0; h < t->nhouses; h++) {
        unsigned long v = PyLong_AsUnsignedLong(PyList_GET_ITEM(placed, h));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return NULL;
        done[h] = (uint32_t)v;
    }
    long best = -1;
    PyObject *found = PyList_New(0);
    if (!found) return NULL;
    for (int d = 0; d < t->n; d++)
        CS_FOR(c, planes[d], {
            long got = nishio_count(t, planes[d], done, c, d);
            if (got < 0 || (best >= 0 && got > best)) continue;
            if (best < 0 || got < best) {
                best = got;
                if (PyList_SetSlice(found, 0, PyList_GET_SIZE(found), NULL)) goto fail;
            }
            if (append_pair(found, c, d)) goto fail;
        });
    if (best < 0) {
        Py_DECREF(found);
        Py_RETURN_NONE;
    }
    return Py_BuildValue("(lN)", best, found);
fail:
    Py_DECREF(found);
    return NULL;
}
