/*
 * A traced branch written out for Python (trace.h): its lines, as implications.Trace holds them,
 * or, without keep where the grid broke, only those the contradiction needs, renumbered.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "settle_tables.h"
#include "trace_lines.h"

/* The ints as a new tuple (or, with list, a list). */
static PyObject *ints(const int *values, size_t count, int list)
{
    PyObject *out = list ? PyList_New((Py_ssize_t)count) : PyTuple_New((Py_ssize_t)count);
    if (!out) return NULL;
    for (size_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        if (list) PyList_SET_ITEM(out, (Py_ssize_t)i, v);
        else PyTuple_SET_ITEM(out, (Py_ssize_t)i, v);
    }
    return out;
}

static PyObject *int_tuple(const int *values, int count) { return ints(values, (size_t)count, 0); }

/* Causes renumbered (renum: per line its new index, -1 where left out; NULL: as they are). */
static int renumber(const int *causes, int count, const int *renum, int *out)
{
    for (int i = 0; i < count; i++) out[i] = renum ? renum[causes[i]] : causes[i];
    return count;
}

PyObject *trace_result(trace_t *tr, int code, long long settles, int keep)
{
    /* without keep, only the lines the contradiction needs (its branch, the assumption first),
     * renumbered: Trace.branch of them is the branch of all the lines */
    int *renum = NULL, *tmp = NULL, kept = tr->nlines;
    if (!keep && tr->broken) {
        renum = (int *)malloc(sizeof(int) * (size_t)(tr->nlines ? tr->nlines : 1));
        tmp = (int *)malloc(sizeof(int) * (size_t)(tr->nlines + tr->bcount + 1));
        if (!renum || !tmp) {
            free(renum);
            free(tmp);
            return PyErr_NoMemory();
        }
        int w = tr->words;
        uint64_t *mask = tr->scratch;
        memcpy(mask, tr->needs, sizeof(uint64_t) * (size_t)w); /* line 0: the assumption */
        for (int i = 0; i < tr->bcount; i++) {
            const uint64_t *row = tr->needs + (size_t)tr->pool[tr->bfirst + (size_t)i] * (size_t)w;
            for (int j = 0; j < w; j++) mask[j] |= row[j];
        }
        kept = 0;
        for (int i = 0; i < tr->nlines; i++) renum[i] = mask[i >> 6] >> (i & 63) & 1 ? kept++ : -1;
    }
    PyObject *lines = PyList_New(kept), *broken = NULL, *placed = NULL, *gone = NULL;
    if (!lines) goto fail;
    for (int i = 0, at = 0; i < tr->nlines; i++) {
        const line_t *l = &tr->lines[i];
        if (renum && renum[i] < 0) continue;
        PyObject *causes = renum ? int_tuple(tmp, renumber(tr->pool + l->first, l->count, renum, tmp))
                                 : int_tuple(tr->pool + l->first, l->count);
        PyObject *cells = causes ? shudu_from_cset(l->cells) : NULL;
        if (!cells) {
            Py_XDECREF(causes);
            goto fail;
        }
        /* N: the tuple takes causes and cells (and drops them if it cannot be built) */
        PyObject *item = Py_BuildValue("(iiONiiiN)", l->cell, l->digit, l->on ? Py_True : Py_False,
                                       causes, l->kind, l->rule, l->house, cells);
        if (!item) goto fail;
        PyList_SET_ITEM(lines, at++, item);
    }
    if (tr->broken) {
        PyObject *causes = renum ? int_tuple(tmp, renumber(tr->pool + tr->bfirst, tr->bcount, renum, tmp))
                                 : int_tuple(tr->pool + tr->bfirst, tr->bcount);
        broken = causes ? Py_BuildValue("(iiiN)", tr->bkind, tr->ba, tr->bb, causes) : NULL;
    } else {
        broken = Py_NewRef(Py_None);
    }
    if (broken && keep) {
        placed = ints(tr->placed, (size_t)tr->nc, 1);
        gone = placed ? ints(tr->gone, (size_t)tr->nc * (size_t)tr->n, 1) : NULL;
    } else if (broken) {
        placed = Py_NewRef(Py_None);
        gone = Py_NewRef(Py_None);
    }
    if (!gone) goto fail;
    free(renum);
    free(tmp);
    return Py_BuildValue("(iLNNNN)", code, settles, lines, broken, placed, gone);
fail:
    Py_XDECREF(lines);
    Py_XDECREF(broken);
    Py_XDECREF(placed);
    free(renum);
    free(tmp);
    return NULL;
}
