/*
 * shudu._core_c.Search: one resumable search over one puzzle; the budgets every call of the
 * module reads, the GIL released while searching and the signal poll; and the 9x9 engine's
 * test hooks (_propagate9, _band_tables).
 */
#include "_core.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Search objects (one puzzle, resumable)                                   */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    ShapeObject *shape;
    search_t s;
    int ready;
    int busy;
} SearchObject;

static void
Search_dealloc(SearchObject *self)
{
    if (self->ready)
        search_free(&self->s);
    Py_XDECREF(self->shape);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ------------------------------------------------------------------------ */
/* Signals                                                                  */
/* ------------------------------------------------------------------------ */

/* The interrupt poll of a search that runs with the GIL released (budget_t.poll): take the
 * GIL back, run the signal handlers, release it again.  Nonzero when a handler raised (the
 * exception stays set on the thread state, for the caller to return once it holds the GIL);
 * then the batch's stop flag, if any, is set for the other threads. */
static int
poll_signals(void *arg)
{
    poll_t *pl = arg;
    PyEval_RestoreThread(pl->ts);
    int raised = PyErr_CheckSignals() < 0;
    pl->ts = PyEval_SaveThread();
    if (raised && pl->stop)
        *pl->stop = 1;
    return raised;
}

/* Whether this thread runs Python's signal handlers (only the main thread does): elsewhere a
 * poll would only wait for the GIL. */
static int
handles_signals(void)
{
#if PY_VERSION_HEX < 0x030D0000
    return _PyOS_IsMainThread();
#else
    return 1; /* PyErr_CheckSignals does nothing in other threads */
#endif
}

/* Release the GIL for a search with budget b, polling for signals when this thread handles
 * them (stop: the batch's flag, or NULL). */
void
release_for_search(budget_t *b, poll_t *pl, volatile int *stop)
{
    pl->stop = stop;
    b->stop = stop;
    if (handles_signals()) {
        b->poll = poll_signals;
        b->poll_arg = pl;
    }
    pl->ts = PyEval_SaveThread();
}

int
parse_budget(PyObject *node_limit, double timeout, budget_t *b)
{
    memset(b, 0, sizeof(*b));
    b->node_limit = UINT64_MAX;
    if (node_limit != Py_None) {
        int overflow = 0;
        long long v;
        if (!PyLong_Check(node_limit)) {
            PyErr_SetString(PyExc_TypeError, "node_limit must be an int or None");
            return -1;
        }
        v = PyLong_AsLongLongAndOverflow(node_limit, &overflow);
        if (v < 0 || overflow < 0) {
            PyErr_SetString(PyExc_ValueError, "node_limit must not be negative");
            return -1;
        }
        b->node_limit = overflow > 0 ? UINT64_MAX : (uint64_t)v;
    }
    if (timeout != timeout) {
        PyErr_SetString(PyExc_ValueError, "timeout must not be NaN");
        return -1;
    }
    b->deadline = timeout < 0 ? -1.0 : monotonic_seconds() + timeout;
    /* with a deadline the first node reads the clock; without one the first checkpoint is
     * BUDGET_EVERY nodes in (and the first poll POLL_SECONDS after it, see common.h) */
    b->tick = b->deadline < 0 ? 1u : 0u;
    return 0;
}

/* solve_many's threads (1 to 256) and limit (at least 1; past 2**63 - 1, as good as no limit),
 * each NULL when not given: -1 with the error set. */
int
parse_batch_counts(PyObject *threads_obj, PyObject *limit_obj, int *threads,
                   unsigned long long *limit)
{
    int overflow = 0;
    if (threads_obj) {
        if (!PyLong_Check(threads_obj)) {
            PyErr_SetString(PyExc_TypeError, "threads must be an int");
            return -1;
        }
        long long v = PyLong_AsLongLongAndOverflow(threads_obj, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow || v < 1 || v > 256) {
            PyErr_Format(PyExc_ValueError, "threads must be between 1 and 256, got %R", threads_obj);
            return -1;
        }
        *threads = (int)v;
    }
    if (limit_obj) {
        if (!PyLong_Check(limit_obj)) {
            PyErr_SetString(PyExc_TypeError, "limit must be an int");
            return -1;
        }
        long long v = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow < 0 || (!overflow && v < 1)) {
            PyErr_SetString(PyExc_ValueError, "limit must be at least 1");
            return -1;
        }
        *limit = overflow > 0 ? ULLONG_MAX : (unsigned long long)v;
    }
    return 0;
}

/* Shape.search(givens: bytes) -> Search */
PyObject *
Shape_search(ShapeObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != self->sh.ncells) {
        PyErr_Format(PyExc_ValueError, "givens must have %d entries, got %zd", self->sh.ncells,
                     view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    const uint8_t *g = view.buf;
    for (int c = 0; c < self->sh.ncells; c++)
        if (g[c] > self->sh.n) {
            PyErr_Format(PyExc_ValueError, "given %d at cell %d is outside 0..%d", g[c], c,
                         self->sh.n);
            PyBuffer_Release(&view);
            return NULL;
        }
    SearchObject *obj = PyObject_New(SearchObject, &SearchType);
    if (!obj) {
        PyBuffer_Release(&view);
        return NULL;
    }
    obj->ready = obj->busy = 0;
    Py_INCREF(self);
    obj->shape = self;
    if (search_init(&obj->s, &self->sh) < 0) {
        PyBuffer_Release(&view);
        Py_DECREF(obj);
        return PyErr_NoMemory();
    }
    obj->ready = 1;
    search_reset(&obj->s, g);
    PyBuffer_Release(&view);
    return (PyObject *)obj;
}

/* Search.run(want, keep, node_limit=None, timeout=-1.0) -> (solutions, code) */
static PyObject *
Search_run(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"want", "keep", "node_limit", "timeout", NULL};
    Py_ssize_t want, keep;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    budget_t b;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nn|Od:run", kwlist, &want, &keep, &node_limit,
                                     &timeout))
        return NULL;
    if (want < 0 || keep < 0)
        return PyErr_Format(PyExc_ValueError, "want and keep must not be negative");
    if (parse_budget(node_limit, timeout, &b) < 0)
        return NULL;
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "this search is running in another thread");
    int nc = self->shape->sh.ncells;
    if (keep > want)
        keep = want;
    uint8_t *out = keep ? malloc((size_t)keep * nc) : NULL;
    if (keep && !out)
        return PyErr_NoMemory();
    Py_ssize_t found = 0;
    int rc = RUN_SOLUTION;
    poll_t pl;
    self->busy = 1;
    release_for_search(&b, &pl, NULL);
    while (found < want) {
        rc = search_next(&self->s, found < keep ? out + found * nc : NULL, &b);
        if (rc != RUN_SOLUTION)
            break;
        found++;
    }
    PyEval_RestoreThread(pl.ts);
    self->busy = 0;
    if (b.interrupted) {
        /* a signal handler raised (KeyboardInterrupt): the search stopped before a node and
         * can be run again */
        free(out);
        return NULL;
    }
    if (rc == RUN_NOMEM) {
        free(out);
        return PyErr_NoMemory();
    }
    Py_ssize_t kept = found < keep ? found : keep;
    PyObject *list = PyList_New(kept);
    if (!list) {
        free(out);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < kept; i++) {
        PyObject *sol = PyBytes_FromStringAndSize((const char *)out + i * nc, nc);
        if (!sol) {
            Py_DECREF(list);
            free(out);
            return NULL;
        }
        PyList_SET_ITEM(list, i, sol);
    }
    free(out);
    /* 0: stopped at `want` (more may follow), 1: exhausted, 2: budget spent */
    int code = rc == RUN_SOLUTION ? CALL_STOPPED : rc == RUN_EXHAUSTED ? CALL_EXHAUSTED : CALL_BUDGET;
    return Py_BuildValue("(Nni)", list, found, code);
}

static PyObject *
Search_get_nodes(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->s.p.nodes);
}

static PyObject *
Search_get_guesses(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->s.p.guesses);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(want, keep, node_limit=None, timeout=-1.0) -> (solutions, found, code)"},
    {NULL, NULL, 0, NULL},
};

static PyObject *
Search_get_settled(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->s.p.settled);
}

static PyGetSetDef Search_getset[] = {
    {"settled", (getter)Search_get_settled, NULL, "empty cells filled before the first guess",
     NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "search nodes opened so far", NULL},
    {"guesses", (getter)Search_get_guesses, NULL, "guesses made so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu._core_c.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable search over one puzzle (see _fast_py.Search).",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ------------------------------------------------------------------------ */
/* The 9x9 engine's test hooks                                              */
/* ------------------------------------------------------------------------ */

/* _propagate9(givens: bytes) -> tuple of 81 digit masks, or None on contradiction.
 * The 9x9 engine's propagation from the givens alone, for the tests that compare it with
 * its Python statement (shudu/solvers/_band9_py.py). */
PyObject *
core_propagate9(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    mask_t cand[81];
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != 81) {
        PyErr_Format(PyExc_ValueError, "givens must have 81 entries, got %zd", view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    uint8_t givens[81];
    memcpy(givens, view.buf, 81);
    PyBuffer_Release(&view);
    for (int c = 0; c < 81; c++)
        if (givens[c] > 9)
            return PyErr_Format(PyExc_ValueError, "given %d at cell %d is outside 0..9",
                                givens[c], c);
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = shudu_propagate9(givens, cand);
    Py_END_ALLOW_THREADS
    if (!ok)
        Py_RETURN_NONE;
    PyObject *out = PyTuple_New(81);
    if (!out)
        return NULL;
    for (int c = 0; c < 81; c++) {
        PyObject *v = PyLong_FromUnsignedLong(cand[c]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, c, v);
    }
    return out;
}

PyObject *
int_tuple(const uint32_t *values, int count)
{
    PyObject *out = PyTuple_New(count);
    if (!out)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = PyLong_FromUnsignedLong(values[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* _band_tables() -> (BAND_KEEP, TRIAD_KEEP, ROW_BOX_OTHERS) as tuples of ints, for the
 * tests. */
PyObject *
core_band_tables(PyObject *module, PyObject *unused)
{
    PyObject *keep = int_tuple(shudu_band_keep, 512);
    PyObject *triads = keep ? int_tuple(shudu_triad_keep, 512) : NULL;
    PyObject *others = triads ? int_tuple(shudu_row_box_others, 27) : NULL;
    if (!others) {
        Py_XDECREF(keep);
        Py_XDECREF(triads);
        return NULL;
    }
    return Py_BuildValue("(NNN)", keep, triads, others);
}
