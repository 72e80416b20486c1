/*
 * shudu._core_c.Shape: a grid shape compiled once (size, houses, links; the 9x9 engine's
 * locks and extra houses), read and checked from Python lists.  Its methods search
 * (_core_search.c) and solve batches (_core_batch.c).
 */
#include "_core.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Shape objects                                                            */
/* ------------------------------------------------------------------------ */

static void
Shape_dealloc(ShapeObject *self)
{
    free(self->sh.house);
    free(self->sh.peer_start);
    free(self->sh.peers);
    free(self->sh.lock_start);
    free(self->sh.lock_cells);
    free(self->sh.b9x);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Read a sequence of cell indices into out[]; returns its length or -1. */
static Py_ssize_t
read_cells(PyObject *seq, const char *what, Py_ssize_t index, int ncells, int16_t *out,
           Py_ssize_t max)
{
    PyObject *fast = PySequence_Fast(seq, "");
    if (!fast) {
        PyErr_Format(PyExc_TypeError, "%s %zd is not a sequence of cell indices", what, index);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s %zd has %zd cells, more than %zd", what, index, len,
                     max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_TypeError, "%s %zd: cell indices must be int", what, index);
            return -1;
        }
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            v = -1;
        }
        if (v < 0 || v >= ncells) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s %zd: cell index %R is outside 0..%d", what, index,
                         item, ncells - 1);
            return -1;
        }
        out[i] = (int16_t)v;
    }
    Py_DECREF(fast);
    return len;
}

/* Do the houses equal the 27 standard houses of 9x9 (in any order)? */
static int
is_standard9(const int16_t *house, int nhouses)
{
    int seen[27] = {0};
    if (nhouses != 27)
        return 0;
    for (int h = 0; h < 27; h++) {
        int id = shudu_standard_house9(house + 9 * h);
        if (id < 0 || seen[id])
            return 0;
        seen[id] = 1;
    }
    return 1;
}

/* The intersections of the houses (see shape_t): every pair of houses, in the order of
 * the first house then the second, that shares at least two cells but not all of them.
 * -1 when out of memory. */
static int
build_locks(shape_t *sh)
{
    const int n = sh->n, nc = sh->ncells, nh = sh->nhouses;
    int32_t *count = calloc((size_t)nh, sizeof(int32_t));
    uint8_t *mark = calloc((size_t)nc, 1);
    int32_t *cell_start = calloc((size_t)nc + 1, sizeof(int32_t));
    int32_t *cell_house = malloc(sizeof(int32_t) * ((size_t)nh * n + 1));
    int32_t *pairs = NULL;
    int npairs = 0, cap = 0, rc = -1;
    size_t total = 0;
    sh->nlocks = 0;
    sh->lock_start = NULL;
    sh->lock_cells = NULL;
    if (!count || !mark || !cell_start || !cell_house)
        goto done;
    /* the houses of each cell, in house order */
    for (int h = 0; h < nh; h++)
        for (int i = 0; i < n; i++)
            cell_start[sh->house[h * n + i] + 1]++;
    for (int c = 0; c < nc; c++)
        cell_start[c + 1] += cell_start[c];
    {
        int32_t *fill = calloc((size_t)nc, sizeof(int32_t));
        if (!fill)
            goto done;
        for (int h = 0; h < nh; h++)
            for (int i = 0; i < n; i++) {
                int c = sh->house[h * n + i];
                cell_house[cell_start[c] + fill[c]++] = h;
            }
        free(fill);
    }
    for (int a = 0; a < nh; a++) {
        const int16_t *ha = sh->house + (size_t)a * n;
        for (int i = 0; i < n; i++)
            for (int32_t j = cell_start[ha[i]]; j < cell_start[ha[i] + 1]; j++)
                if (cell_house[j] > a)
                    count[cell_house[j]]++;
        for (int b = a + 1; b < nh; b++) {
            if (count[b] >= 2 && count[b] < n) {
                if (npairs == cap) {
                    cap = cap ? 2 * cap : 64;
                    int32_t *grown = realloc(pairs, sizeof(int32_t) * 2 * (size_t)cap);
                    if (!grown)
                        goto done;
                    pairs = grown;
                }
                pairs[2 * npairs] = a;
                pairs[2 * npairs + 1] = b;
                npairs++;
                total += 2 * (size_t)n - (size_t)count[b];
            }
            count[b] = 0;
        }
    }
    sh->lock_start = malloc(sizeof(int32_t) * (3 * (size_t)npairs + 1));
    sh->lock_cells = malloc(sizeof(int16_t) * (total + 1));
    if (!sh->lock_start || !sh->lock_cells)
        goto done;
    total = 0;
    for (int k = 0; k < npairs; k++) {
        const int16_t *ha = sh->house + (size_t)pairs[2 * k] * n;
        const int16_t *hb = sh->house + (size_t)pairs[2 * k + 1] * n;
        /* mark: 1 in the first house, 2 in the second, 3 in both */
        for (int i = 0; i < n; i++)
            mark[ha[i]] = 1;
        for (int i = 0; i < n; i++)
            mark[hb[i]] |= 2;
        sh->lock_start[3 * k] = (int32_t)total;
        for (int i = 0; i < n; i++)
            if (mark[ha[i]] == 3)
                sh->lock_cells[total++] = ha[i];
        sh->lock_start[3 * k + 1] = (int32_t)total;
        for (int i = 0; i < n; i++)
            if (mark[ha[i]] == 1)
                sh->lock_cells[total++] = ha[i];
        sh->lock_start[3 * k + 2] = (int32_t)total;
        for (int i = 0; i < n; i++)
            if (mark[hb[i]] == 2)
                sh->lock_cells[total++] = hb[i];
        for (int i = 0; i < n; i++)
            mark[ha[i]] = mark[hb[i]] = 0;
    }
    sh->lock_start[3 * npairs] = (int32_t)total;
    sh->nlocks = npairs;
    rc = 0;
done:
    free(count);
    free(mark);
    free(cell_start);
    free(cell_house);
    free(pairs);
    return rc;
}

/* Read the houses (each n distinct cells) into sh->house, marking each pair of cells that
 * share one in adj (nc x nc); -1 with the error set. */
static int
read_houses(shape_t *sh, PyObject *hs, uint8_t *adj)
{
    int n = sh->n, nc = sh->ncells;
    int16_t buf[MAX_CELLS];
    for (Py_ssize_t h = 0; h < sh->nhouses; h++) {
        Py_ssize_t len =
            read_cells(PySequence_Fast_GET_ITEM(hs, h), "house", h, nc, buf, MAX_CELLS);
        if (len < 0)
            return -1;
        if (len != n) {
            PyErr_Format(PyExc_ValueError, "house %zd has %zd cells; a %dx%d grid needs %d", h, len,
                         n, n, n);
            return -1;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (buf[i] == buf[j]) {
                    PyErr_Format(PyExc_ValueError, "house %zd holds cell %d twice", h, buf[i]);
                    return -1;
                }
        memcpy(sh->house + h * n, buf, sizeof(int16_t) * (size_t)n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i != j)
                    adj[(size_t)buf[i] * nc + buf[j]] = 1;
    }
    return 0;
}

/* Read the links (one sequence of linked cells per cell) into adj, both ways; returns 1 if
 * there is any link, 0 if none, -1 with the error set. */
static int
read_links(PyObject *links, int nc, uint8_t *adj)
{
    int16_t buf[MAX_CELLS];
    int has_links = 0;
    PyObject *ls = PySequence_Fast(links, "links must be a sequence (one entry per cell)");
    if (!ls)
        return -1;
    if (PySequence_Fast_GET_SIZE(ls) != nc) {
        PyErr_Format(PyExc_ValueError, "links must have one entry per cell (%d), got %zd", nc,
                     PySequence_Fast_GET_SIZE(ls));
        has_links = -1;
    }
    for (int c = 0; c < nc && has_links >= 0; c++) {
        Py_ssize_t len = read_cells(PySequence_Fast_GET_ITEM(ls, c), "links of cell", c, nc, buf, nc);
        if (len < 0)
            has_links = -1;
        for (Py_ssize_t i = 0; i < len && has_links >= 0; i++) {
            if (buf[i] == c) {
                PyErr_Format(PyExc_ValueError, "cell %d is linked to itself", c);
                has_links = -1;
            } else {
                adj[(size_t)c * nc + buf[i]] = adj[(size_t)buf[i] * nc + c] = 1;
                has_links = 1;
            }
        }
    }
    Py_DECREF(ls);
    return has_links;
}

/* Each cell's peers, from adj, into sh->peer_start and sh->peers; -1 when memory ran out. */
static int
build_peers(shape_t *sh, const uint8_t *adj)
{
    int nc = sh->ncells;
    size_t total = 0;
    for (size_t i = 0; i < (size_t)nc * nc; i++)
        total += adj[i];
    sh->peers = malloc(sizeof(int16_t) * (total + 1));
    if (!sh->peers)
        return -1;
    total = 0;
    for (int c = 0; c < nc; c++) {
        sh->peer_start[c] = (int32_t)total;
        for (int p = 0; p < nc; p++)
            if (adj[(size_t)c * nc + p])
                sh->peers[total++] = (int16_t)p;
    }
    sh->peer_start[nc] = (int32_t)total;
    return 0;
}

static PyObject *
Shape_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "houses", "links", "general", NULL};
    int n, general = 0;
    PyObject *houses, *links = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|Op:Shape", kwlist, &n, &houses, &links,
                                     &general))
        return NULL;
    if (n < 4 || n > MAX_N)
        return PyErr_Format(PyExc_ValueError, "grid size must be between 4 and %d, got %d", MAX_N,
                            n);
    int nc = n * n;
    PyObject *hs = PySequence_Fast(houses, "houses must be a sequence of houses");
    if (!hs)
        return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs);
    if (nh > 4 * nc) {
        Py_DECREF(hs);
        return PyErr_Format(PyExc_ValueError, "too many houses: %zd", nh);
    }
    ShapeObject *self = (ShapeObject *)type->tp_alloc(type, 0);
    uint8_t *adj = calloc((size_t)nc * nc, 1);
    if (!self || !adj)
        goto nomem;
    shape_t *sh = &self->sh;
    sh->n = n;
    sh->ncells = nc;
    sh->nhouses = (int)nh;
    sh->full = (mask_t)((1u << n) - 1);
    sh->house = malloc(sizeof(int16_t) * (size_t)(nh * n + 1));
    sh->peer_start = malloc(sizeof(int32_t) * (size_t)(nc + 1));
    if (!sh->house || !sh->peer_start)
        goto nomem;
    if (read_houses(sh, hs, adj) < 0)
        goto fail;
    int has_links = links == Py_None ? 0 : read_links(links, nc, adj);
    if (has_links < 0)
        goto fail;
    if (build_peers(sh, adj) < 0)
        goto nomem;
    sh->std9 = !general && n == 9 && !has_links && is_standard9(sh->house, (int)nh);
    if (!sh->std9 && !general && shudu_band9_extras(sh, has_links) < 0)
        goto nomem;
    if (!sh->std9 && !sh->b9x && build_locks(sh) < 0)
        goto nomem;
    free(adj);
    Py_DECREF(hs);
    return (PyObject *)self;
nomem:
    PyErr_NoMemory();
fail:
    free(adj);
    Py_DECREF(hs);
    Py_XDECREF(self);
    return NULL;
}

static PyObject *
Shape_get_n(ShapeObject *self, void *closure)
{
    return PyLong_FromLong(self->sh.n);
}

static PyObject *
Shape_get_std9(ShapeObject *self, void *closure)
{
    return PyBool_FromLong(self->sh.std9);
}

static PyObject *
Shape_get_var9(ShapeObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->sh.b9x != NULL);
}

static PyMethodDef Shape_methods[] = {
    {"search", (PyCFunction)Shape_search, METH_O, "search(givens: bytes) -> Search"},
    {"solve_many", (PyCFunction)(void (*)(void))Shape_solve_many, METH_VARARGS | METH_KEYWORDS,
     "solve_many(puzzles, limit=1, threads=1, node_limit=None, timeout=-1.0)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Shape_getset[] = {
    {"n", (getter)Shape_get_n, NULL, "grid size", NULL},
    {"std9", (getter)Shape_get_std9, NULL, "served by the 9x9 engine", NULL},
    {"var9", (getter)Shape_get_var9, NULL, "served by the 9x9 engine with extra houses", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject ShapeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu._core_c.Shape",
    .tp_basicsize = sizeof(ShapeObject),
    .tp_dealloc = (destructor)Shape_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled grid shape: size, houses and links (see _fast_py.Shape).",
    .tp_methods = Shape_methods,
    .tp_getset = Shape_getset,
    .tp_new = Shape_new,
};

