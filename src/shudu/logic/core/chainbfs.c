/*
 * The chains' breadth-first search (shudu.logic.techniques.aic.layers_py, the specification) in C.
 *
 * A graph of nodes (ints) with strong and weak links is read once (chain_graph), each node's
 * links in the order the Python containers give them.  chain_bfs walks it from one start,
 * "off", a strong link into each "on" state and a weak one into each "off" state (a state is
 * node * 2 + on), layer by layer up to a limit of links, exactly as the Python generator does,
 * a layer a call (chain_bfs_layer): the size of its frontier (what the Python code counts
 * against the logic budget) and the "on" states it met, in order.  It keeps every (state,
 * parent) pair in the order met; Python reads them (chain_bfs_edges) only when it traces a
 * path, so a search its caller stops early costs no more than the layers it asked for.
 *
 * A search may leave out of its layers the "on" states its caller would pass over: those whose
 * node is not weakly linked to the start (a loop closes only on those), or those that with the
 * start prove nothing (chain_ends: the finders' test of a chain's two ends).  Nothing here calls
 * back into Python.
 *
 * chainsearch.c runs whole searches and sweeps in one call; chainlinks.c builds the loop
 * graph's links.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chainbfs.h"
#include "chains.h"
#include "settle_tables.h"

static void graph_free(PyObject *capsule)
{
    graph_t *g = (graph_t *)PyCapsule_GetPointer(capsule, G_CAPSULE);
    if (g) {
        free(g->first);
        free(g->adj);
        free(g);
    }
}
int chain_node_id(PyObject *x, int32_t *out)
{
    long v = PyLong_AsLong(x);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= G_MAX_NODE) {
        PyErr_Format(PyExc_ValueError, "chain node out of range: %ld", v);
        return -1;
    }
    *out = (int32_t)v;
    return 0;
}

/* The number of links a container holds (a set or a list; any other iterable is refused). */
static int links_count(PyObject *links, Py_ssize_t *count)
{
    if (PyAnySet_Check(links)) {
        *count = PySet_GET_SIZE(links);
        return 0;
    }
    if (PyList_Check(links) || PyTuple_Check(links)) {
        *count = PySequence_Fast_GET_SIZE(links);
        return 0;
    }
    PyErr_SetString(PyExc_TypeError, "chain links must be sets, lists or tuples");
    return -1;
}

/* Write the ids of one container's links to out[0 .. count) in its iteration order (a set's
 * order is the one Python iterates it in); *top rises to the largest id. The container must
 * still hold count links (the maps are not changed while they are read: no Python runs). */
static int links_read(PyObject *links, Py_ssize_t count, int32_t *out, int32_t *top)
{
    if (PyAnySet_Check(links)) {
        PyObject *it = PyObject_GetIter(links), *x;
        if (!it) return -1;
        Py_ssize_t j = 0;
        while ((x = PyIter_Next(it)) != NULL) {
            int32_t v = 0;
            int bad = j >= count || chain_node_id(x, &v);
            Py_DECREF(x);
            if (bad) {
                Py_DECREF(it);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "chain links changed size");
                return -1;
            }
            out[j++] = v;
            if (v > *top) *top = v;
        }
        Py_DECREF(it);
        if (PyErr_Occurred()) return -1;
        if (j != count) {
            PyErr_SetString(PyExc_RuntimeError, "chain links changed size");
            return -1;
        }
        return 0;
    }
    for (Py_ssize_t j = 0; j < count; j++) {
        int32_t v = 0;
        if (chain_node_id(PySequence_Fast_GET_ITEM(links, j), &v)) return -1;
        out[j] = v;
        if (v > *top) *top = v;
    }
    return 0;
}

PyObject *shudu_chain_graph(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyDict_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "chain_graph takes two dicts: strong and weak links");
        return NULL;
    }
    graph_t *g = NULL;
    int32_t *len = NULL;
    PyObject *capsule = NULL, *key, *links;
    Py_ssize_t pos, total = 0;
    /* first the keys and their links' counts, then each key's links in its slot */
    int32_t top = -1;
    for (int k = 0; k < 2; k++) {
        pos = 0;
        while (PyDict_Next(args[k], &pos, &key, &links)) {
            int32_t v;
            Py_ssize_t count;
            if (chain_node_id(key, &v) || links_count(links, &count)) goto done;
            if (v > top) top = v;
            total += count;
        }
    }
    if (!(g = (graph_t *)calloc(1, sizeof(graph_t)))) {
        PyErr_NoMemory();
        goto done;
    }
    g->nodes = top + 1;
    g->first = (int32_t *)calloc((size_t)(2 * g->nodes + 1), sizeof(int32_t));
    g->adj = (int32_t *)malloc((size_t)(total + 1) * sizeof(int32_t));
    len = (int32_t *)calloc((size_t)(2 * g->nodes + 1), sizeof(int32_t));
    if (!g->first || !g->adj || !len) {
        PyErr_NoMemory();
        goto done;
    }
    for (int k = 0; k < 2; k++) {
        pos = 0;
        while (PyDict_Next(args[k], &pos, &key, &links)) {
            int32_t v = 0;
            Py_ssize_t count = 0;
            chain_node_id(key, &v); /* read once above: in range */
            links_count(links, &count);
            len[2 * v + k] = (int32_t)count;
        }
    }
    for (int32_t s = 0; s < 2 * g->nodes; s++) g->first[s + 1] = g->first[s] + len[s];
    /* a link may name a node that is no key (no links of its own): the graph grows to it */
    int32_t reached = top;
    for (int k = 0; k < 2; k++) {
        pos = 0;
        while (PyDict_Next(args[k], &pos, &key, &links)) {
            int32_t v = 0;
            chain_node_id(key, &v);
            if (links_read(links, len[2 * v + k], g->adj + g->first[2 * v + k], &reached)) goto done;
        }
    }
    if (reached > top) {
        int32_t *grown = (int32_t *)realloc(g->first, (size_t)(2 * (reached + 1) + 1) * sizeof(int32_t));
        if (!grown) {
            PyErr_NoMemory();
            goto done;
        }
        g->first = grown;
        for (int32_t s = 2 * g->nodes + 1; s <= 2 * (reached + 1); s++) g->first[s] = g->first[2 * g->nodes];
        g->nodes = reached + 1;
    }
    capsule = PyCapsule_New(g, G_CAPSULE, graph_free);
done:
    free(len);
    if (!capsule && g) {
        free(g->first);
        free(g->adj);
        free(g);
    }
    return capsule;
}

/* A growing array of int32. */
typedef struct {
    int32_t *at;
    size_t len, cap;
} ivec;

static int push(ivec *v, int32_t a, int32_t b)
{
    if (v->len + 2 > v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 256;
        int32_t *grown = (int32_t *)realloc(v->at, cap * sizeof(int32_t));
        if (!grown) return -1;
        v->at = grown;
        v->cap = cap;
    }
    v->at[v->len++] = a;
    v->at[v->len++] = b;
    return 0;
}


static void ends_free(PyObject *capsule)
{
    ends_t *e = (ends_t *)PyCapsule_GetPointer(capsule, E_CAPSULE);
    if (e) {
        Py_XDECREF(e->tables_capsule);
        free(e->gseen);
        free(e->gdigit);
        free(e);
    }
}

PyObject *shudu_chain_ends(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 6, "chain_ends");
    if (!t) return NULL;
    PyObject *cands = args[1], *where = args[2], *groups = args[3];
    long base = PyLong_AsLong(args[4]);
    int proves = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || proves < 0) return NULL;
    if (!PyList_Check(cands) || PyList_GET_SIZE(cands) != t->ncells || !PyList_Check(where) ||
        PyList_GET_SIZE(where) != t->n || !PyList_Check(groups) || base < 0 ||
        base > G_MAX_NODE || base < (long)t->ncells * t->n) {
        PyErr_SetString(PyExc_ValueError, "chain_ends: the grid does not match the tables");
        return NULL;
    }
    ends_t *e = (ends_t *)calloc(1, sizeof(ends_t));
    if (!e) return PyErr_NoMemory();
    Py_ssize_t ng = PyList_GET_SIZE(groups);
    e->t = t;
    e->n = t->n;
    e->proves = proves;
    e->base = (int32_t)base;
    e->ngroups = (int32_t)ng;
    e->gseen = (cset *)calloc((size_t)ng + 1, sizeof(cset));
    e->gdigit = (int32_t *)calloc((size_t)ng + 1, sizeof(int32_t));
    if (!e->gseen || !e->gdigit) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int c = 0; c < t->ncells; c++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(cands, c));
        if (v == -1 && PyErr_Occurred()) goto fail;
        if (v < 0 || v >= (1L << t->n)) {
            PyErr_Format(PyExc_ValueError, "a cell's candidates out of range: %ld", v);
            goto fail;
        }
        e->cands[c] = (uint32_t)v;
    }
    for (int d = 0; d < t->n; d++)
        if (shudu_get_cset(PyList_GET_ITEM(where, d), t->ncells, &e->where[d])) goto fail;
    for (Py_ssize_t i = 0; i < ng; i++) {
        PyObject *pair = PyList_GET_ITEM(groups, i);
        cset cells;
        long d;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "chain_ends: a group is a (cells, digit) pair");
            goto fail;
        }
        if (shudu_get_cset(PyTuple_GET_ITEM(pair, 0), t->ncells, &cells)) goto fail;
        d = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        if (d == -1 && PyErr_Occurred()) goto fail;
        if (d < 0 || d >= t->n || !cs_any(cells)) {
            PyErr_SetString(PyExc_ValueError, "chain_ends: a group out of range");
            goto fail;
        }
        cset seen = {~(uint64_t)0, ~(uint64_t)0};
        CS_FOR(c, cells, { seen = cs_and(seen, t->peer[c]); });
        e->gseen[i] = cs_andnot(seen, cells);
        e->gdigit[i] = (int32_t)d;
    }
    PyObject *capsule = PyCapsule_New(e, E_CAPSULE, ends_free);
    if (!capsule) goto fail;
    Py_INCREF(args[0]);
    e->tables_capsule = args[0];
    return capsule;
fail:
    free(e->gseen);
    free(e->gdigit);
    free(e);
    return NULL;
}

/* One search, a layer a call. */
#define S_CAPSULE_BFS "shudu.chain_bfs"

enum { ONLY_ALL = 0, ONLY_CLOSING = 1, ONLY_ENDS = 2 };

typedef struct {
    PyObject *graph_capsule; /* a reference: the graph outlives the search */
    const graph_t *g;
    int32_t *depth, *frontier, *nxt;
    int32_t nf, links, limit, start;
    ivec edges;
    int only;                /* which "on" states a layer gives */
    uint8_t *closing;        /* ONLY_CLOSING: per node, weakly linked to the start */
    PyObject *ends_capsule;  /* ONLY_ENDS: a reference */
    const ends_t *ends;
} search_t;

static void search_free(PyObject *capsule)
{
    search_t *s = (search_t *)PyCapsule_GetPointer(capsule, S_CAPSULE_BFS);
    if (s) {
        Py_XDECREF(s->graph_capsule);
        Py_XDECREF(s->ends_capsule);
        free(s->depth);
        free(s->frontier);
        free(s->nxt);
        free(s->closing);
        free(s->edges.at);
        free(s);
    }
}

static int wanted(const search_t *s, int32_t state)
{
    if (!(state & 1)) return 0;
    switch (s->only) {
    case ONLY_CLOSING: return s->closing[state >> 1];
    case ONLY_ENDS: return proves_something(s->ends, s->start, state >> 1);
    default: return 1;
    }
}

PyObject *shudu_chain_bfs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "chain_bfs takes 3 or 4 arguments");
        return NULL;
    }
    const graph_t *g = (const graph_t *)PyCapsule_GetPointer(args[0], G_CAPSULE);
    if (!g) return NULL;
    long start = PyLong_AsLong(args[1]), limit = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    if (start < 0 || start >= g->nodes) {
        PyErr_SetString(PyExc_KeyError, "chain_bfs: the start is not a node of the graph");
        return NULL;
    }
    PyObject *only = nargs == 4 ? args[3] : Py_None;
    const ends_t *ends = NULL;
    if (PyCapsule_CheckExact(only)) {
        if (!(ends = (const ends_t *)PyCapsule_GetPointer(only, E_CAPSULE))) return NULL;
    } else if (only != Py_None && only != Py_True) {
        PyErr_SetString(PyExc_TypeError, "chain_bfs: only is None, True or chain_ends");
        return NULL;
    }
    search_t *s = (search_t *)calloc(1, sizeof(search_t));
    if (!s) return PyErr_NoMemory();
    const size_t states = 2 * (size_t)g->nodes;
    s->depth = (int32_t *)malloc(states * sizeof(int32_t));
    s->frontier = (int32_t *)malloc(states * sizeof(int32_t));
    s->nxt = (int32_t *)malloc(states * sizeof(int32_t));
    s->start = (int32_t)start;
    s->only = ends ? ONLY_ENDS : only == Py_True ? ONLY_CLOSING : ONLY_ALL;
    if (s->only == ONLY_CLOSING && (s->closing = (uint8_t *)calloc((size_t)g->nodes, 1))) {
        /* the start's weak links: from an "on" state, kind 1 */
        for (int32_t j = g->first[2 * start + 1]; j < g->first[2 * start + 2]; j++)
            s->closing[g->adj[j]] = 1;
    }
    PyObject *capsule = NULL;
    if (!s->depth || !s->frontier || !s->nxt || (s->only == ONLY_CLOSING && !s->closing)) {
        PyErr_NoMemory();
    } else {
        memset(s->depth, 0xff, states * sizeof(int32_t)); /* -1: not met */
        s->g = g;
        s->depth[2 * start] = 0;
        s->frontier[0] = (int32_t)(2 * start);
        s->nf = 1;
        s->limit = limit > INT32_MAX ? INT32_MAX : limit < 0 ? 0 : (int32_t)limit;
        capsule = PyCapsule_New(s, S_CAPSULE_BFS, search_free);
    }
    if (!capsule) {
        free(s->depth);
        free(s->frontier);
        free(s->nxt);
        free(s->closing);
        free(s);
        return NULL;
    }
    Py_INCREF(args[0]);
    s->graph_capsule = args[0];
    if (ends) {
        Py_INCREF(only);
        s->ends_capsule = only;
        s->ends = ends;
    }
    return capsule;
}

PyObject *shudu_chain_bfs_layer(PyObject *module, PyObject *search)
{
    (void)module;
    search_t *s = (search_t *)PyCapsule_GetPointer(search, S_CAPSULE_BFS);
    if (!s) return NULL;
    if (!s->nf || s->links + 1 >= s->limit) Py_RETURN_NONE;
    const graph_t *g = s->g;
    int32_t links = ++s->links, nn = 0, nons = 0, *depth = s->depth, *nxt = s->nxt;
    for (int32_t i = 0; i < s->nf; i++) {
        int32_t state = s->frontier[i], node = state >> 1, on = state & 1;
        /* from "on", the weak links into "off" states; from "off", the strong into "on" */
        int32_t from = g->first[2 * node + on], to = g->first[2 * node + on + 1];
        for (int32_t j = from; j < to; j++) {
            int32_t fresh = g->adj[j] * 2 + (on ? 0 : 1);
            if (depth[fresh] < 0) {
                depth[fresh] = links;
                nxt[nn++] = fresh;
                nons += wanted(s, fresh);
                if (push(&s->edges, fresh, state)) return PyErr_NoMemory();
            } else if (depth[fresh] == links) {
                if (push(&s->edges, fresh, state)) return PyErr_NoMemory();
            }
        }
    }
    /* the layer: its frontier's size and the states it reached "on" (those wanted), in the
     * order met */
    PyObject *ons = PyTuple_New(nons);
    if (!ons) return NULL;
    for (int32_t i = 0, k = 0; i < nn; i++)
        if (wanted(s, nxt[i])) {
            PyObject *v = PyLong_FromLong(nxt[i]);
            if (!v) {
                Py_DECREF(ons);
                return NULL;
            }
            PyTuple_SET_ITEM(ons, k++, v);
        }
    PyObject *layer = Py_BuildValue("(iN)", s->nf, ons);
    s->nxt = s->frontier;
    s->frontier = nxt;
    s->nf = nn;
    return layer;
}

PyObject *shudu_chain_bfs_edges(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "chain_bfs_edges takes 2 arguments");
        return NULL;
    }
    search_t *s = (search_t *)PyCapsule_GetPointer(args[0], S_CAPSULE_BFS);
    if (!s) return NULL;
    Py_ssize_t from = PyLong_AsSsize_t(args[1]);
    if (from == -1 && PyErr_Occurred()) return NULL;
    if (from < 0 || (size_t)from > s->edges.len / 2) {
        PyErr_SetString(PyExc_ValueError, "chain_bfs_edges: index out of range");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)(s->edges.at + 2 * from),
                                     (Py_ssize_t)((s->edges.len - 2 * (size_t)from) * sizeof(int32_t)));
}
