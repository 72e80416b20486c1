/*
 * The chains' breadth-first search (shudu.logic.chains.layers_py, the specification) in C.
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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chainbfs.h"
#include "settle_tables.h"

#define G_CAPSULE "shudu.chain_graph"
/* The largest node id a graph may hold (n**3 plus the group nodes stays far below it). */
#define G_MAX_NODE (1 << 22)

typedef struct {
    int32_t nodes;  /* ids 0 .. nodes - 1 */
    int32_t *first; /* [2 * nodes + 1]: links of node v, kind k (0 strong, 1 weak) at
                       adj[first[2v + k] .. first[2v + k + 1]) */
    int32_t *adj;
} graph_t;

static void graph_free(PyObject *capsule)
{
    graph_t *g = (graph_t *)PyCapsule_GetPointer(capsule, G_CAPSULE);
    if (g) {
        free(g->first);
        free(g->adj);
        free(g);
    }
}

static int node_id(PyObject *x, int32_t *out)
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
            int bad = j >= count || node_id(x, &v);
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
        if (node_id(PySequence_Fast_GET_ITEM(links, j), &v)) return -1;
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
            if (node_id(key, &v) || links_count(links, &count)) goto done;
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
            node_id(key, &v); /* read once above: in range */
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
            node_id(key, &v);
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

/* What the ends of a chain prove (shudu.logic.chains._outcome, shudu.logic.loops._ends): the
 * grid's candidates, and the nodes' cells and digits (a candidate node is cell * n + digit; a
 * group node is base + its index). */
#define E_CAPSULE "shudu.chain_ends"

typedef struct {
    PyObject *tables_capsule; /* a reference: the tables outlive the ends */
    const tables_t *t;
    int n, proves; /* proves: a chain from a node back to it proves it */
    int32_t base, ngroups;
    uint32_t cands[S_MAX_CELLS];
    cset where[S_MAX_DIGITS];
    cset *gseen;     /* per group: the cells that see all of its cells, outside it */
    int32_t *gdigit; /* per group: its digit */
} ends_t;

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
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "chain_ends takes 6 arguments");
        return NULL;
    }
    const tables_t *t = (const tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
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

/* A node's digit and the cells that see all of it (0: a node the ends do not know). */
static int node_of(const ends_t *e, int32_t node, int *digit, cset *seen, int *cell)
{
    if (node >= e->base) {
        int32_t g = node - e->base;
        if (g >= e->ngroups) return 0;
        *digit = e->gdigit[g];
        *seen = e->gseen[g];
        *cell = -1;
        return 1;
    }
    if (node / e->n >= e->t->ncells) return 0;
    *cell = node / e->n;
    *digit = node % e->n;
    *seen = e->t->peer[*cell];
    return 1;
}

/* Whether "s or y is true" proves something: a placement (s == y, where the ends say so) or
 * an elimination. */
static int proves_something(const ends_t *e, int32_t s, int32_t y)
{
    if (s == y) return e->proves;
    int ds, dy, cs, cy;
    cset ss, sy;
    if (!node_of(e, s, &ds, &ss, &cs) || !node_of(e, y, &dy, &sy, &cy)) return 0;
    if (ds == dy) return cs_any(cs_and(e->where[ds], cs_and(ss, sy)));
    if (cs < 0 || cy < 0) return 0;
    if (cs == cy) return (e->cands[cs] & ~((1u << ds) | (1u << dy))) != 0;
    if (cs_has(e->t->peer[cs], cy)) return (e->cands[cs] >> dy & 1) || (e->cands[cy] >> ds & 1);
    return 0;
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

/* loop_graph.Graph._weak: per node (in order), the nodes of its digit (in order) whose cells all see
 * all of its cells, outside them; with in_cell, a candidate node's cell's other candidates that
 * are nodes too. */
PyObject *shudu_chain_weak(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "chain_weak takes 7 arguments");
        return NULL;
    }
    const tables_t *t = (const tables_t *)PyCapsule_GetPointer(args[0], S_CAPSULE);
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
    int32_t *id = (int32_t *)malloc(((size_t)count + 1) * sizeof(int32_t));
    int32_t *dig = (int32_t *)malloc(((size_t)count + 1) * sizeof(int32_t));
    int32_t *order = (int32_t *)malloc(((size_t)count + 1) * sizeof(int32_t));
    int32_t start[S_MAX_DIGITS + 1];
    cset *own = (cset *)malloc(((size_t)count + 1) * sizeof(cset));
    uint8_t *is_node = (uint8_t *)calloc((size_t)base + 1, 1);
    uint32_t mask[S_MAX_CELLS];
    PyObject *result = NULL;
    if (!id || !dig || !order || !own || !is_node) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < nc; c++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(cands, c));
        if (v == -1 && PyErr_Occurred()) goto done;
        mask[c] = (uint32_t)v & (uint32_t)((1u << n) - 1);
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (node_id(PyList_GET_ITEM(nodes, i), &id[i])) goto done;
        PyObject *its_cells, *its_digit;
        if (!by_id) {
            its_cells = PyList_GET_ITEM(cells, i);
            its_digit = PyList_GET_ITEM(digits, i);
        } else if (id[i] >= base) {
            PyObject *group = id[i] - base < PyList_GET_SIZE(cells) ? PyList_GET_ITEM(cells, id[i] - base) : NULL;
            if (!group || !PyTuple_Check(group) || PyTuple_GET_SIZE(group) != 2) {
                PyErr_SetString(PyExc_ValueError, "chain_weak: a group node with no (cells, digit)");
                goto done;
            }
            its_cells = PyTuple_GET_ITEM(group, 0);
            its_digit = PyTuple_GET_ITEM(group, 1);
        } else {
            its_cells = its_digit = NULL;
        }
        long d = its_digit ? PyLong_AsLong(its_digit) : id[i] % n;
        if (d == -1 && PyErr_Occurred()) goto done;
        if (d < 0 || d >= n) {
            PyErr_SetString(PyExc_ValueError, "chain_weak: a digit out of range");
            goto done;
        }
        dig[i] = (int32_t)d;
        if (its_cells) {
            if (shudu_get_cset(its_cells, nc, &own[i])) goto done;
        } else if (id[i] / n < nc) {
            own[i] = cs_bit(id[i] / n);
        } else {
            PyErr_SetString(PyExc_ValueError, "chain_weak: a node beyond the grid's cells");
            goto done;
        }
        if (id[i] < base) is_node[id[i]] = 1;
    }
    /* the nodes of each digit, in order */
    memset(start, 0, sizeof start);
    for (Py_ssize_t i = 0; i < count; i++) start[dig[i] + 1]++;
    for (int d = 0; d < n; d++) start[d + 1] += start[d];
    {
        int32_t fill[S_MAX_DIGITS];
        memcpy(fill, start, sizeof fill);
        for (Py_ssize_t i = 0; i < count; i++) order[fill[dig[i]]++] = (int32_t)i;
    }
    if (!(result = PyList_New(count))) goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *out = PyList_New(0);
        if (!out) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, out);
        cset seeing = {~(uint64_t)0, ~(uint64_t)0};
        CS_FOR(c, own[i], { seeing = cs_and(seeing, t->peer[c]); });
        int d = dig[i];
        for (int32_t q = start[d]; q < start[d + 1]; q++) {
            int32_t j = order[q];
            if (cs_any(cs_andnot(own[j], seeing)) || cs_any(cs_and(own[j], own[i]))) continue;
            PyObject *v = PyLong_FromLong(id[j]);
            if (!v || PyList_Append(out, v)) {
                Py_XDECREF(v);
                Py_CLEAR(result);
                goto done;
            }
            Py_DECREF(v);
        }
        if (in_cell && id[i] < base) {
            int cell = id[i] / n;
            for (uint32_t m = cell < nc ? mask[cell] : 0; m; m &= m - 1) {
                int e = ctz64(m);
                int32_t other = cell * n + e;
                if (e == d || !is_node[other]) continue;
                PyObject *v = PyLong_FromLong(other);
                if (!v || PyList_Append(out, v)) {
                    Py_XDECREF(v);
                    Py_CLEAR(result);
                    goto done;
                }
                Py_DECREF(v);
            }
        }
    }
done:
    free(id);
    free(dig);
    free(order);
    free(own);
    free(is_node);
    return result;
}

/* chains._search in one call: from each start in turn, breadth first up to the limit, the first
 * state reached "on" that with the start proves something; each chain found makes the limit
 * its length, so a later start looks only for a shorter one.  The last chain found is the
 * shortest: its states are returned, traced through each state's first parent. */
PyObject *shudu_chain_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 && nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "chain_search takes 6 or 7 arguments");
        return NULL;
    }
    const graph_t *g = (const graph_t *)PyCapsule_GetPointer(args[0], G_CAPSULE);
    if (!g) return NULL;
    const ends_t *e = (const ends_t *)PyCapsule_GetPointer(args[3], E_CAPSULE);
    if (!e) return NULL;
    PyObject *starts = args[1];
    long limit = PyLong_AsLong(args[2]);
    double seconds = PyFloat_AsDouble(args[4]);
    long long nodes = PyLong_AsLongLong(args[5]);
    /* a chain counts only through a node from group_base on (-1: any chain counts) */
    long group_base = nargs == 7 ? PyLong_AsLong(args[6]) : -1;
    if (PyErr_Occurred()) return NULL;
    if (!PyList_Check(starts)) {
        PyErr_SetString(PyExc_TypeError, "chain_search: the starts are a list");
        return NULL;
    }
    const size_t states = 2 * (size_t)g->nodes;
    /* a state is met in this start's search when its stamp is the start's number (the stamps
     * are cleared once, not for every start) */
    uint32_t *seen = (uint32_t *)calloc(states, sizeof(uint32_t)), stamp = 0;
    int32_t *parent = (int32_t *)malloc(states * sizeof(int32_t));
    int32_t *frontier = (int32_t *)malloc(states * sizeof(int32_t));
    int32_t *nxt = (int32_t *)malloc(states * sizeof(int32_t));
    int32_t *path = NULL;
    PyObject *result = NULL;
    if (!seen || !parent || !frontier || !nxt) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t units = 0, most = nodes < 0 ? UINT64_MAX : (uint64_t)nodes;
    double deadline = seconds < 0 ? -1.0 : monotonic_seconds() + seconds;
    unsigned tick = 0;
    int spent = 0;
    int32_t best_end = -1, lim = limit > INT32_MAX ? INT32_MAX : limit < 0 ? 0 : (int32_t)limit;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(starts) && !spent; k++) {
        int32_t start;
        if (node_id(PyList_GET_ITEM(starts, k), &start)) goto done;
        if (start >= g->nodes) {
            PyErr_SetString(PyExc_KeyError, "chain_search: a start is not a node of the graph");
            goto done;
        }
        seen[2 * start] = ++stamp;
        parent[2 * start] = -1;
        frontier[0] = 2 * start;
        int32_t nf = 1, links = 0, found = -1;
        while (nf && links + 1 < lim && found < 0) {
            if (units + (uint64_t)nf > most ||
                (deadline >= 0 && (tick++ & 63u) == 0 && monotonic_seconds() > deadline)) {
                spent = 1;
                break;
            }
            units += (uint64_t)nf;
            links++;
            int32_t nn = 0;
            for (int32_t i = 0; i < nf; i++) {
                int32_t state = frontier[i], node = state >> 1, on = state & 1;
                for (int32_t j = g->first[2 * node + on]; j < g->first[2 * node + on + 1]; j++) {
                    int32_t fresh = g->adj[j] * 2 + (on ? 0 : 1);
                    if (seen[fresh] != stamp) {
                        seen[fresh] = stamp;
                        parent[fresh] = state;
                        nxt[nn++] = fresh;
                    }
                }
            }
            for (int32_t i = 0; i < nn && found < 0; i++)
                if ((nxt[i] & 1) && proves_something(e, start, nxt[i] >> 1)) found = nxt[i];
            int32_t *swap = frontier;
            frontier = nxt;
            nxt = swap;
            nf = nn;
        }
        if (found >= 0) {
            /* the chain, traced now (the arrays are reused by the next start); with a group
             * base, only a chain through a group node counts */
            int grouped = group_base < 0;
            for (int32_t st = found; st >= 0 && !grouped; st = parent[st])
                if ((st >> 1) >= group_base) grouped = 1;
            if (grouped) {
                free(path);
                if (!(path = (int32_t *)malloc(((size_t)links + 2) * sizeof(int32_t)))) {
                    PyErr_NoMemory();
                    goto done;
                }
                int32_t count = 0;
                for (int32_t st = found; st >= 0; st = parent[st]) path[count++] = st;
                best_end = count;
                lim = links; /* a later chain must be shorter */
            }
        }
    }
    PyObject *chain = Py_None;
    if (best_end > 0) {
        if (!(chain = PyTuple_New(best_end))) goto done;
        for (int32_t i = 0; i < best_end; i++) {
            PyObject *v = PyLong_FromLong(path[best_end - 1 - i]);
            if (!v) {
                Py_DECREF(chain);
                goto done;
            }
            PyTuple_SET_ITEM(chain, i, v);
        }
    } else {
        Py_INCREF(chain);
    }
    result = Py_BuildValue("(iKN)", spent ? 2 : best_end > 0 ? 1 : 0, (unsigned long long)units, chain);
done:
    free(seen);
    free(parent);
    free(frontier);
    free(nxt);
    free(path);
    return result;
}

/* The continuous nice loops' sweep (shudu.logic.loops._closed_loops) in one call: from each
 * start in turn, breadth first up to the limit, the "on" states of the nodes weakly linked to
 * the start (where a loop closes), layer by layer, until each of those nodes has been met.  A
 * start whose loop closes at three links or more is left to Python (which writes its loops
 * out, and counts its layers); the others' frontiers are counted here, as Python counts them. */
PyObject *shudu_chain_sweep(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "chain_sweep takes 5 arguments");
        return NULL;
    }
    const graph_t *g = (const graph_t *)PyCapsule_GetPointer(args[0], G_CAPSULE);
    if (!g) return NULL;
    PyObject *starts = args[1];
    long limit = PyLong_AsLong(args[2]);
    double seconds = PyFloat_AsDouble(args[3]);
    long long nodes = PyLong_AsLongLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    if (!PyList_Check(starts)) {
        PyErr_SetString(PyExc_TypeError, "chain_sweep: the starts are a list");
        return NULL;
    }
    const size_t states = 2 * (size_t)g->nodes;
    /* a state is met in this start's search when its stamp is the start's number */
    uint32_t *seen = (uint32_t *)calloc(states, sizeof(uint32_t)), stamp = 0;
    int32_t *frontier = (int32_t *)malloc(states * sizeof(int32_t));
    int32_t *nxt = (int32_t *)malloc(states * sizeof(int32_t));
    uint8_t *closing = (uint8_t *)calloc((size_t)g->nodes + 1, 1);
    PyObject *keep = PyList_New(0), *result = NULL;
    if (!seen || !frontier || !nxt || !closing || !keep) {
        if (keep) PyErr_NoMemory();
        goto done;
    }
    uint64_t units = 0, most = nodes < 0 ? UINT64_MAX : (uint64_t)nodes;
    double deadline = seconds < 0 ? -1.0 : monotonic_seconds() + seconds;
    unsigned tick = 0;
    int spent = 0;
    int32_t lim = limit > INT32_MAX ? INT32_MAX : limit < 0 ? 0 : (int32_t)limit;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(starts) && !spent; k++) {
        PyObject *item = PyList_GET_ITEM(starts, k);
        int32_t start;
        if (node_id(item, &start)) goto done;
        if (start >= g->nodes) {
            PyErr_SetString(PyExc_KeyError, "chain_sweep: a start is not a node of the graph");
            goto done;
        }
        /* the nodes weakly linked to the start, each counted once */
        int32_t wfrom = g->first[2 * start + 1], wto = g->first[2 * start + 2], unmet = 0;
        for (int32_t j = wfrom; j < wto; j++)
            if (!closing[g->adj[j]]) {
                closing[g->adj[j]] = 1;
                unmet++;
            }
        seen[2 * start] = ++stamp;
        frontier[0] = 2 * start;
        int32_t nf = 1, links = 0;
        uint64_t own = 0; /* this start's units */
        int kept = 0, done_here = 0;
        while (nf && links + 1 < lim && !kept && !done_here) {
            if (units + own + (uint64_t)nf > most ||
                (deadline >= 0 && (tick++ & 63u) == 0 && monotonic_seconds() > deadline)) {
                spent = 1;
                break;
            }
            own += (uint64_t)nf;
            links++;
            int32_t nn = 0;
            for (int32_t i = 0; i < nf; i++) {
                int32_t state = frontier[i], node = state >> 1, on = state & 1;
                for (int32_t j = g->first[2 * node + on]; j < g->first[2 * node + on + 1]; j++) {
                    int32_t fresh = g->adj[j] * 2 + (on ? 0 : 1);
                    if (seen[fresh] != stamp) {
                        seen[fresh] = stamp;
                        nxt[nn++] = fresh;
                    }
                }
            }
            /* the layer's closing states, in the order met */
            for (int32_t i = 0; i < nn; i++) {
                if (!(nxt[i] & 1) || !closing[nxt[i] >> 1]) continue;
                if (links >= 3) {
                    kept = 1;
                    break;
                }
                if (--unmet == 0) {
                    done_here = 1;
                    break;
                }
            }
            int32_t *swap = frontier;
            frontier = nxt;
            nxt = swap;
            nf = nn;
        }
        for (int32_t j = wfrom; j < wto; j++) closing[g->adj[j]] = 0;
        if (spent) break;
        if (kept) {
            if (PyList_Append(keep, item)) goto done;
        } else {
            units += own;
        }
    }
    result = Py_BuildValue("(iKO)", spent ? 2 : 0, (unsigned long long)units, keep);
done:
    Py_XDECREF(keep);
    free(seen);
    free(frontier);
    free(nxt);
    free(closing);
    return result;
}

/* --- the loop graph's strong links (shudu.logic.loop_graph.Graph._strong_py) ---------------- */

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
