/*
 * shudu._core_c.ConstraintSearch and constraint_propagate: the constraint engine
 * (solvers/core/constraints.h) behind solver "constraints".
 */
#include "_core.h"

#include <stdlib.h>
#include <string.h>

#include "solvers/core/constraints.h"

/* ------------------------------------------------------------------------ */
/* The constraint engine (solvers/core/constraints.h)                       */
/* ------------------------------------------------------------------------ */

/* Read a network of size n (int32 records, shudu.solvers.constraints.encode_network) and
 * its domains (uint32, one a cell, each a non-empty set of digits): 0, or -1 with an
 * exception set.  *dom is malloc'd. */
static int
read_network(int n, PyObject *records, PyObject *domains, cnet_t *net, mask_t **dom)
{
    Py_buffer rv, dv;
    const char *why = NULL;
    if (n < 4 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "size must be 4..%d, not %d", MAX_N, n);
        return -1;
    }
    if (PyObject_GetBuffer(records, &rv, PyBUF_SIMPLE) < 0)
        return -1;
    if (PyObject_GetBuffer(domains, &dv, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&rv);
        return -1;
    }
    Py_ssize_t ncells = dv.len / 4, nrec = rv.len / 4;
    int32_t *rec = malloc(rv.len ? (size_t)rv.len : 1);
    *dom = malloc(dv.len ? (size_t)dv.len : 1);
    int rc = -1;
    if (!rec || !*dom) {
        PyErr_NoMemory();
    } else if (rv.len % 4 || dv.len % 4 || ncells > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "records and domains must be arrays of 4-byte ints, "
                                          "at most MAX_SIZE**2 domains");
    } else {
        memcpy(rec, rv.buf, (size_t)rv.len);
        memcpy(*dom, dv.buf, (size_t)dv.len);
        mask_t full = (mask_t)((1u << n) - 1u);
        rc = 0;
        for (Py_ssize_t c = 0; c < ncells && !rc; c++)
            if (!(*dom)[c] || ((*dom)[c] & ~full)) {
                PyErr_Format(PyExc_ValueError, "domain %zd is not a non-empty set of 1..%d", c, n);
                rc = -1;
            }
        if (!rc) {
            rc = cnet_init(net, n, (int)ncells, rec, (size_t)nrec, &why);
            if (rc == -1)
                PyErr_Format(PyExc_ValueError, "bad constraint network: %s", why);
            else if (rc < 0)
                PyErr_NoMemory();
        }
    }
    free(rec);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&dv);
    if (rc < 0) {
        free(*dom);
        *dom = NULL;
    }
    return rc < 0 ? -1 : 0;
}

/* constraint_propagate(size, records, domains) -> the domains after one propagation of every
 * propagator to a fixed point, or None on a contradiction (for the tests that compare it
 * with the Python engine). */
PyObject *
core_constraint_propagate(PyObject *module, PyObject *args)
{
    int n, ok;
    PyObject *records, *domains;
    cnet_t net;
    mask_t *dom;
    if (!PyArg_ParseTuple(args, "iOO:constraint_propagate", &n, &records, &domains))
        return NULL;
    if (read_network(n, records, domains, &net, &dom) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    ok = cnet_propagate(&net, dom, -1);
    Py_END_ALLOW_THREADS
    PyObject *out = ok ? int_tuple(dom, net.ncells) : Py_NewRef(Py_None);
    cnet_free(&net);
    free(dom);
    return out;
}

typedef struct {
    PyObject_HEAD
    csearch_t s;
    int ready;
    int busy;
} ConstraintSearchObject;

static void
ConstraintSearch_dealloc(ConstraintSearchObject *self)
{
    if (self->ready)
        csearch_free(&self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ConstraintSearch(size, records, domains) */
static PyObject *
ConstraintSearch_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "records", "domains", NULL};
    int n;
    PyObject *records, *domains;
    cnet_t net;
    mask_t *dom;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOO:ConstraintSearch", kwlist, &n, &records,
                                     &domains))
        return NULL;
    if (read_network(n, records, domains, &net, &dom) < 0)
        return NULL;
    ConstraintSearchObject *self = (ConstraintSearchObject *)type->tp_alloc(type, 0);
    if (!self) {
        cnet_free(&net);
        free(dom);
        return NULL;
    }
    int rc = csearch_init(&self->s, &net, dom);
    free(dom);
    if (rc < 0) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->ready = 1;
    return (PyObject *)self;
}

/* ConstraintSearch.run(want, node_limit=None, timeout=-1.0) -> (grids, code): up to want
 * full grids (bytes of digits), and 0 (stopped at want), 1 (exhausted) or 2 (budget spent:
 * the node count passed node_limit, or the timeout ran out). */
static PyObject *
ConstraintSearch_run(ConstraintSearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"want", "node_limit", "timeout", NULL};
    Py_ssize_t want;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    budget_t b;
    poll_t pl;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n|Od:run", kwlist, &want, &node_limit, &timeout))
        return NULL;
    if (want < 0)
        return PyErr_Format(PyExc_ValueError, "want must not be negative");
    if (parse_budget(node_limit, timeout, &b) < 0)
        return NULL;
    if (b.node_limit != UINT64_MAX)
        b.node_limit++; /* a node past the limit is counted, then refused (as in Python) */
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "this search is running in another thread");
    int nc = self->s.net.ncells, rc = RUN_SOLUTION;
    uint8_t *out = want ? malloc((size_t)want * (size_t)(nc ? nc : 1)) : NULL;
    if (want && !out)
        return PyErr_NoMemory();
    Py_ssize_t found = 0;
    self->busy = 1;
    release_for_search(&b, &pl, NULL);
    while (found < want && (rc = csearch_next(&self->s, out + found * nc, &b)) == RUN_SOLUTION)
        found++;
    PyEval_RestoreThread(pl.ts);
    self->busy = 0;
    PyObject *list = b.interrupted ? NULL : PyList_New(found);
    for (Py_ssize_t i = 0; list && i < found; i++) {
        PyObject *grid = PyBytes_FromStringAndSize((const char *)out + i * nc, nc);
        if (!grid)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, grid);
    }
    free(out);
    if (!list)
        return NULL;
    int code = rc == RUN_SOLUTION ? CALL_STOPPED : rc == RUN_EXHAUSTED ? CALL_EXHAUSTED : CALL_BUDGET;
    return Py_BuildValue("(Ni)", list, code);
}

static PyObject *
ConstraintSearch_get(ConstraintSearchObject *self, void *which)
{
    uint64_t v = which == (void *)0 ? self->s.nodes : which == (void *)1 ? self->s.guesses : self->s.settled;
    return PyLong_FromUnsignedLongLong(v);
}

static PyMethodDef ConstraintSearch_methods[] = {
    {"run", (PyCFunction)(void (*)(void))ConstraintSearch_run, METH_VARARGS | METH_KEYWORDS,
     "run(want, node_limit=None, timeout=-1.0) -> (grids, code)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef ConstraintSearch_getset[] = {
    {"nodes", (getter)ConstraintSearch_get, NULL, "search nodes opened so far", (void *)0},
    {"guesses", (getter)ConstraintSearch_get, NULL, "branch points so far", (void *)1},
    {"settled", (getter)ConstraintSearch_get, NULL, "open cells fixed before the first guess",
     (void *)2},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject ConstraintSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu._core_c.ConstraintSearch",
    .tp_basicsize = sizeof(ConstraintSearchObject),
    .tp_dealloc = (destructor)ConstraintSearch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable search of the constraint engine (see shudu.solvers.constraints).",
    .tp_methods = ConstraintSearch_methods,
    .tp_getset = ConstraintSearch_getset,
    .tp_new = ConstraintSearch_new,
};
