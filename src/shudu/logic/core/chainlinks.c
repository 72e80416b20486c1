/*
 * The loop graph's links in C (shudu.logic.techniques.grouped_graph.Graph, the specification): each node's
 * weak links (chain_weak) and each digit's strong links in its houses (loop_strong), in the
 * order the Python code adds them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chainbfs.h"
#include "chains.h"
#include "settle_tables.h"

/* The nodes of a chain_weak call, read: per node i its id, digit and cells (own); is_node: the
 * candidate nodes below base.  0, or -1 with an exception set. */
typedef struct {
    const tables_t *t;
    PyObject *nodes, *cells, *digits; /* digits None: cells are the group nodes' (cells, digit) */
    long base;
    int32_t *id, *dig;
    cset *own;
    uint8_t *is_node;
} weak_nodes_t;

static int read_weak_node(weak_nodes_t *w, Py_ssize_t i)
{
    const int n = w->t->n, nc = w->t->ncells;
    int32_t *id = w->id;
    if (chain_node_id(PyList_GET_ITEM(w->nodes, i), &id[i])) return -1;
    PyObject *its_cells, *its_digit;
    if (w->digits != Py_None) {
        its_cells = PyList_GET_ITEM(w->cells, i);
        its_digit = PyList_GET_ITEM(w->digits, i);
    } else if (id[i] >= w->base) {
        PyObject *group = id[i] - w->base < PyList_GET_SIZE(w->cells) ? PyList_GET_ITEM(w->cells, id[i] - w->base) : NULL;
        if (!group || !PyTuple_Check(group) || PyTuple_GET_SIZE(group) != 2) {
            PyErr_SetString(PyExc_ValueError, "chain_weak: a group node with no (cells, digit)");
            return -1;
        }
        its_cells = PyTuple_GET_ITEM(group, 0);
        its_digit = PyTuple_GET_ITEM(group, 1);
    } else {
        its_cells = its_digit = NULL;
    }
    long d = its_digit ? PyLong_AsLong(its_digit) : id[i] % n;
    if (d == -1 && PyErr_Occurred()) return -1;
    if (d < 0 || d >= n) {
        PyErr_SetString(PyExc_ValueError, "chain_weak: a digit out of range");
        return -1;
    }
    w->dig[i] = (int32_t)d;
    if (its_cells) {
        if (shudu_get_cset(its_cells, nc, &w->own[i])) return -1;
    } else if (id[i] / n < nc) {
        w->own[i] = cs_bit(id[i] / n);
    } else {
        PyErr_SetString(PyExc_ValueError, "chain_weak: a node beyond the grid's cells");
        return -1;
    }
    if (id[i] < w->base) w->is_node[id[i]] = 1;
    return 0;
}

static int append_node(PyObject *out, int32_t node)
{
    PyObject *v = PyLong_FromLong(node);
    if (!v || PyList_Append(out, v)) {
        Py_XDECREF(v);
        return -1;
    }
    Py_DECREF(v);
    return 0;
}

/* Node i's weak links into out: the nodes of its digit (order[start[d] .. start[d + 1])) whose
 * cells all see all of its cells, outside them; with in_cell, its cell's other candidates that
 * are nodes (mask: the candidates per cell).  0, or -1 with an exception set. */
static int weak_links_of(const weak_nodes_t *w, Py_ssize_t i, const int32_t *order,
                         const int32_t *start, const uint32_t *mask, int in_cell, PyObject *out)
{
    const tables_t *t = w->t;
    const int n = t->n, nc = t->ncells;
    const int32_t *id = w->id;
    const cset *own = w->own;
    cset seeing = {~(uint64_t)0, ~(uint64_t)0};
    CS_FOR(c, own[i], { seeing = cs_and(seeing, t->peer[c]); });
    int d = w->dig[i];
    for (int32_t q = start[d]; q < start[d + 1]; q++) {
        int32_t j = order[q];
        if (cs_any(cs_andnot(own[j], seeing)) || cs_any(cs_and(own[j], own[i]))) continue;
        if (append_node(out, id[j])) return -1;
    }
    if (in_cell && id[i] < w->base) {
        int cell = id[i] / n;
        for (uint32_t m = cell < nc ? mask[cell] : 0; m; m &= m - 1) {
            int e = ctz64(m);
            int32_t other = cell * n + e;
            if (e == d || !w->is_node[other]) continue;
            if (append_node(out, other)) return -1;
        }
    }
    return 0;
}

/* loop_graph.Graph._weak: per node (in order), the nodes of its digit (in order) whose cells all see
 * all of its cells, outside them; with in_cell, a candidate node's cell's other candidates that
 * are nodes too. */
PyObject *shudu_chain_weak(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 7, "chain_weak");
    if (!t) return NULL;
    PyObject *nodes = args[1], *cells = args[2], *digits = args[3], *cands = args[4];
    long base = PyLong_AsLong(args[5]);
    int in_cell = PyObject_IsTrue(args[6]);
    if (PyErr_Occurred() || in_cell < 0) return NULL;
    const int n = t->n, nc = t->ncells;
    /* digits None: cells is the list of group nodes' (cells, digit), and a node below base is
     * the candidate cell * n + digit */
    const int by_id = digits == Py_None;
    if (!PyList_Check(nodes) || !PyList_Check(cells) || !PyList_Check(cands) ||
        (!by_id && (!PyList_Check(digits) || PyList_GET_SIZE(cells) != PyList_GET_SIZE(nodes) ||
                    PyList_GET_SIZE(digits) != PyList_GET_SIZE(nodes))) ||
        PyList_GET_SIZE(cands) != nc || base < (long)nc * n || base > G_MAX_NODE) {
        PyErr_SetString(PyExc_ValueError, "chain_weak: the nodes do not match the tables");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(nodes);
    weak_nodes_t w = {t, nodes, cells, digits, base,
                      (int32_t *)malloc(((size_t)count + 1) * sizeof(int32_t)),
                      (int32_t *)malloc(((size_t)count + 1) * sizeof(int32_t)),
                      (cset *)malloc(((size_t)count + 1) * sizeof(cset)),
                      (uint8_t *)calloc((size_t)base + 1, 1)};
    int32_t *order = (int32_t *)malloc(((size_t)count + 1) * sizeof(int32_t));
    int32_t start[S_MAX_DIGITS + 1];
    uint32_t mask[S_MAX_CELLS];
    PyObject *result = NULL;
    if (!w.id || !w.dig || !order || !w.own || !w.is_node) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < nc; c++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(cands, c));
        if (v == -1 && PyErr_Occurred()) goto done;
        mask[c] = (uint32_t)v & (uint32_t)((1u << n) - 1);
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (read_weak_node(&w, i)) goto done;
    /* the nodes of each digit, in order */
    memset(start, 0, sizeof start);
    for (Py_ssize_t i = 0; i < count; i++) start[w.dig[i] + 1]++;
    for (int d = 0; d < n; d++) start[d + 1] += start[d];
    {
        int32_t fill[S_MAX_DIGITS];
        memcpy(fill, start, sizeof fill);
        for (Py_ssize_t i = 0; i < count; i++) order[fill[w.dig[i]]++] = (int32_t)i;
    }
    if (!(result = PyList_New(count))) goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *out = PyList_New(0);
        if (!out) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, out);
        if (weak_links_of(&w, i, order, start, mask, in_cell, out)) {
            Py_CLEAR(result);
            goto done;
        }
    }
done:
    free(w.id);
    free(w.dig);
    free(order);
    free(w.own);
    free(w.is_node);
    return result;
}

/* --- the loop graph's strong links (shudu.logic.techniques.grouped_graph.Graph._strong_py) ---------------- */

static int cs_less(cset a, cset b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }

/* The node of a digit's places: a cell's (cell * n + d) or a group's (base + its number, a new
 * number the first time); -1 out of memory. */
typedef struct {
    cset *cells;
    int32_t *digit;
    int32_t count, cap;
} groups_t;

static long place_node(groups_t *g, cset cells, int d, int n, long base)
{
    if (!cs_many(cells)) return (long)cs_low(cells) * n + d;
    for (int32_t k = 0; k < g->count; k++)
        if (g->digit[k] == d && cs_eq(g->cells[k], cells)) return base + k;
    if (g->count == g->cap) {
        int32_t cap = g->cap ? 2 * g->cap : 64;
        cset *cells_grown = (cset *)realloc(g->cells, (size_t)cap * sizeof(cset));
        if (!cells_grown) return -1;
        g->cells = cells_grown;
        int32_t *digit_grown = (int32_t *)realloc(g->digit, (size_t)cap * sizeof(int32_t));
        if (!digit_grown) return -1;
        g->digit = digit_grown;
        g->cap = cap;
    }
    g->cells[g->count] = cells;
    g->digit[g->count] = d;
    return base + g->count++;
}

/* strong.setdefault(a, set()).add(b), as loop_graph.Graph._link does it, one way */
static int add_one_way(PyObject *strong, PyObject *a, PyObject *b)
{
    PyObject *links = PyDict_GetItemWithError(strong, a); /* borrowed */
    if (!links) {
        if (PyErr_Occurred()) return -1;
        PyObject *fresh = PySet_New(NULL);
        if (!fresh) return -1;
        int rc = PyDict_SetItem(strong, a, fresh);
        Py_DECREF(fresh);
        if (rc) return -1;
        links = fresh; /* the dict holds it */
    } else if (!PySet_Check(links)) {
        PyErr_SetString(PyExc_TypeError, "loop_strong: the strong links must be sets");
        return -1;
    }
    return PySet_Add(links, b);
}

/* The link a-b added both ways: a's set first, as Graph._link adds it. */
static int add_link(PyObject *strong, long a, long b)
{
    PyObject *na = PyLong_FromLong(a), *nb = na ? PyLong_FromLong(b) : NULL;
    int rc = nb ? add_one_way(strong, na, nb) || add_one_way(strong, nb, na) : -1;
    Py_XDECREF(na);
    Py_XDECREF(nb);
    return rc ? -1 : 0;
}

PyObject *shudu_loop_strong(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5 || !PyDict_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "loop_strong takes 5 arguments, the last a dict of strong links");
        return NULL;
    }
    const tables_t *t = (const tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
    if (!t) return NULL;
    PyObject *where = args[1], *digits = args[2];
    int with_groups = PyObject_IsTrue(args[3]);
    if (with_groups < 0) return NULL;
    const int n = t->n, nh = t->nhouses;
    if (!PyList_Check(where) || PyList_GET_SIZE(where) != n || !PyList_Check(digits)) {
        PyErr_SetString(PyExc_ValueError, "loop_strong: the grid does not match the tables");
        return NULL;
    }
    const long base = (long)n * n * n;
    groups_t g = {NULL, NULL, 0, 0};
    /* per house, the cells it shares with each house it meets in two cells or more */
    cset *meet = (cset *)malloc(((size_t)nh * (size_t)nh + 1) * sizeof(cset));
    int nmeet[S_MAX_HOUSES];
    PyObject *links = args[4], *made = NULL;
    if (!meet) {
        PyErr_NoMemory();
        goto done;
    }
    for (int h = 0; h < nh; h++) {
        nmeet[h] = 0;
        for (int b = 0; b < nh; b++) {
            cset inter = cs_and(t->house[h], t->house[b]);
            if (b != h && cs_many(inter)) meet[(size_t)h * nh + nmeet[h]++] = inter;
        }
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(digits); k++) {
        long d = PyLong_AsLong(PyList_GET_ITEM(digits, k));
        if (d == -1 && PyErr_Occurred()) goto done;
        if (d < 0 || d >= n) {
            PyErr_SetString(PyExc_ValueError, "loop_strong: a digit out of range");
            goto done;
        }
        cset places;
        if (shudu_get_cset(PyList_GET_ITEM(where, d), t->ncells, &places)) goto done;
        for (int h = 0; h < nh; h++) {
            cset spots = cs_and(places, t->house[h]);
            int count = cs_pop(spots);
            if (count < 2) continue;
            if (count == 2) { /* a conjugate pair: the higher cell's node first */
                int low = cs_low(spots);
                cset rest = spots;
                cs_clear(&rest, low);
                if (add_link(links, (long)cs_low(rest) * n + d, (long)low * n + d)) goto done;
                continue;
            }
            if (!with_groups) continue;
            /* the distinct segments, in rising order as cell sets */
            cset seg[S_MAX_HOUSES];
            int nseg = 0;
            for (int m = 0; m < nmeet[h]; m++) {
                cset part = cs_and(spots, meet[(size_t)h * nh + m]);
                if (!cs_any(part)) continue;
                int at = nseg, known = 0;
                for (int q = 0; q < nseg && !known; q++) known = cs_eq(seg[q], part);
                if (known) continue;
                while (at > 0 && cs_less(part, seg[at - 1])) {
                    seg[at] = seg[at - 1];
                    at--;
                }
                seg[at] = part;
                nseg++;
            }
            for (int i = 0; i < nseg; i++)
                for (int j = i + 1; j < nseg; j++) {
                    if (cs_any(cs_and(seg[i], seg[j])) || !cs_eq(cs_or(seg[i], seg[j]), spots)) continue;
                    long a = place_node(&g, seg[i], (int)d, n, base);
                    long b = a < 0 ? -1 : place_node(&g, seg[j], (int)d, n, base);
                    if (b < 0) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    if (add_link(links, a, b)) goto done;
                }
        }
    }
    if (!(made = PyList_New(g.count))) goto done;
    for (int32_t k = 0; k < g.count; k++) {
        PyObject *cells = shudu_from_cset(g.cells[k]);
        PyObject *one = cells ? Py_BuildValue("(Ni)", cells, g.digit[k]) : NULL;
        if (!one) {
            Py_CLEAR(made);
            goto done;
        }
        PyList_SET_ITEM(made, k, one);
    }
done:
    free(meet);
    free(g.cells);
    free(g.digit);
    return made;
}
