/*
 * The chains' searches run whole in C, each in one call over a chain graph (chainbfs.c reads
 * it): the first and shortest chain that proves something from a list of starts
 * (shudu.logic.techniques.aic._search), and the continuous nice loops' sweep
 * (shudu.logic.techniques.grouped_chains._closed_loops).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chainbfs.h"
#include "chains.h"
#include "settle_tables.h"

/* The budget of one call: units of frontier (what the Python code counts against the logic
 * budget) and a deadline. */
typedef struct {
    uint64_t units, most;
    double deadline;
    unsigned tick;
} units_t;

static void units_start(units_t *b, double seconds, long long nodes)
{
    b->units = 0;
    b->most = nodes < 0 ? UINT64_MAX : (uint64_t)nodes;
    b->deadline = seconds < 0 ? -1.0 : monotonic_seconds() + seconds;
    b->tick = 0;
}

/* Whether a layer that brings the units to `total` is past the budget (the clock is read every
 * 64 layers). */
static inline int units_spent(units_t *b, uint64_t total)
{
    return total > b->most ||
           (b->deadline >= 0 && (b->tick++ & 63u) == 0 && monotonic_seconds() > b->deadline);
}

/* The scratch of a call's walks: a state is met in this start's walk when its stamp is the
 * start's number (the stamps are cleared once, not for every start). */
typedef struct {
    const graph_t *g;
    uint32_t *seen, stamp;
    int32_t *parent; /* each state's first parent (the search), or NULL (the sweep) */
    int32_t *frontier, *nxt;
} walk_t;

/* A walk's next layer: from each state of the frontier, a strong link into an "on" state and a
 * weak one into an "off" state, each state met once, into w->nxt (with its parent when
 * with_parent, a constant at each call); its size. */
static inline int32_t next_layer(walk_t *w, int32_t nf, int with_parent)
{
    const graph_t *g = w->g;
    int32_t nn = 0;
    for (int32_t i = 0; i < nf; i++) {
        int32_t state = w->frontier[i], node = state >> 1, on = state & 1;
        for (int32_t j = g->first[2 * node + on]; j < g->first[2 * node + on + 1]; j++) {
            int32_t fresh = g->adj[j] * 2 + (on ? 0 : 1);
            if (w->seen[fresh] != w->stamp) {
                w->seen[fresh] = w->stamp;
                if (with_parent) w->parent[fresh] = state;
                w->nxt[nn++] = fresh;
            }
        }
    }
    return nn;
}

/* A walk's first layer: the start, "off". */
static void walk_from(walk_t *w, int32_t start)
{
    w->seen[2 * start] = ++w->stamp;
    if (w->parent) w->parent[2 * start] = -1;
    w->frontier[0] = 2 * start;
}

static void swap_layers(walk_t *w)
{
    int32_t *swap = w->frontier;
    w->frontier = w->nxt;
    w->nxt = swap;
}

/* A call's limit and budget (limit, seconds, nodes) and, after group_base (or NULL), its starts:
 * 0, or -1 with an exception set. */
static int read_walk(PyObject *starts, PyObject *const *budget, PyObject *group_base,
                     const char *name, long *base, int32_t *lim, units_t *b)
{
    long limit = PyLong_AsLong(budget[0]);
    double seconds = PyFloat_AsDouble(budget[1]);
    long long nodes = PyLong_AsLongLong(budget[2]);
    if (group_base) *base = PyLong_AsLong(group_base);
    if (PyErr_Occurred()) return -1;
    if (!PyList_Check(starts)) {
        PyErr_Format(PyExc_TypeError, "%s: the starts are a list", name);
        return -1;
    }
    *lim = limit > INT32_MAX ? INT32_MAX : limit < 0 ? 0 : (int32_t)limit;
    units_start(b, seconds, nodes);
    return 0;
}

/* Start k of a call's list, as a node of g: 0, or -1 with an exception set. */
static int read_start(const graph_t *g, PyObject *starts, Py_ssize_t k, const char *name,
                      int32_t *start)
{
    if (chain_node_id(PyList_GET_ITEM(starts, k), start)) return -1;
    if (*start >= g->nodes) {
        PyErr_Format(PyExc_KeyError, "%s: a start is not a node of the graph", name);
        return -1;
    }
    return 0;
}

/* One start's search, breadth first up to lim links: the first state met "on" that with the
 * start proves something, or -1 (none, or the budget is spent: *spent set); *links: the links
 * walked. */
static int32_t search_from(walk_t *w, const ends_t *e, int32_t start, int32_t lim, units_t *b,
                           int *spent, int32_t *links)
{
    walk_from(w, start);
    int32_t nf = 1, found = -1;
    *links = 0;
    while (nf && *links + 1 < lim && found < 0) {
        if (units_spent(b, b->units + (uint64_t)nf)) {
            *spent = 1;
            break;
        }
        b->units += (uint64_t)nf;
        ++*links;
        int32_t nn = next_layer(w, nf, 1);
        for (int32_t i = 0; i < nn && found < 0; i++)
            if ((w->nxt[i] & 1) && proves_something(e, start, w->nxt[i] >> 1)) found = w->nxt[i];
        swap_layers(w);
        nf = nn;
    }
    return found;
}

/* The chain's states as a tuple, from the start (path holds them from the end back). */
static PyObject *chain_tuple(const int32_t *path, int32_t count)
{
    PyObject *chain = PyTuple_New(count);
    if (!chain) return NULL;
    for (int32_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLong(path[count - 1 - i]);
        if (!v) {
            Py_DECREF(chain);
            return NULL;
        }
        PyTuple_SET_ITEM(chain, i, v);
    }
    return chain;
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
    PyObject *budget[3] = {args[2], args[4], args[5]};
    /* a chain counts only through a node from group_base on (-1: any chain counts) */
    long group_base = -1;
    int32_t lim;
    units_t b;
    if (read_walk(starts, budget, nargs == 7 ? args[6] : NULL, "chain_search", &group_base, &lim,
                  &b))
        return NULL;
    const size_t states = 2 * (size_t)g->nodes;
    walk_t w = {g, (uint32_t *)calloc(states, sizeof(uint32_t)), 0,
                (int32_t *)malloc(states * sizeof(int32_t)),
                (int32_t *)malloc(states * sizeof(int32_t)),
                (int32_t *)malloc(states * sizeof(int32_t))};
    int32_t *path = NULL;
    PyObject *result = NULL;
    if (!w.seen || !w.parent || !w.frontier || !w.nxt) {
        PyErr_NoMemory();
        goto done;
    }
    int spent = 0;
    int32_t best_end = -1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(starts) && !spent; k++) {
        int32_t start, links;
        if (read_start(g, starts, k, "chain_search", &start)) goto done;
        int32_t found = search_from(&w, e, start, lim, &b, &spent, &links);
        if (found < 0) continue;
        /* the chain, traced now (the arrays are reused by the next start); with a group base,
         * only a chain through a group node counts */
        int grouped = group_base < 0;
        for (int32_t st = found; st >= 0 && !grouped; st = w.parent[st])
            if ((st >> 1) >= group_base) grouped = 1;
        if (!grouped) continue;
        free(path);
        if (!(path = (int32_t *)malloc(((size_t)links + 2) * sizeof(int32_t)))) {
            PyErr_NoMemory();
            goto done;
        }
        int32_t count = 0;
        for (int32_t st = found; st >= 0; st = w.parent[st]) path[count++] = st;
        best_end = count;
        lim = links; /* a later chain must be shorter */
    }
    PyObject *chain = best_end > 0 ? chain_tuple(path, best_end) : Py_NewRef(Py_None);
    if (!chain) goto done;
    int code = spent ? CHAIN_STOPPED : best_end > 0 ? CHAIN_FOUND : CHAIN_NONE;
    result = Py_BuildValue("(iKN)", code, (unsigned long long)b.units, chain);
done:
    free(w.seen);
    free(w.parent);
    free(w.frontier);
    free(w.nxt);
    free(path);
    return result;
}

/* One start's sweep, breadth first up to lim links, layer by layer until each node weakly
 * linked to the start (closing, unmet of them) has been met "on": SWEEP_KEPT when a loop closes
 * at three links or more (left to Python), SWEEP_SPENT past the budget, else SWEEP_COUNTED with
 * *own the frontiers' units. */
enum { SWEEP_COUNTED = 0, SWEEP_KEPT = 1, SWEEP_SPENT = 2 };

static int sweep_from(walk_t *w, int32_t start, const uint8_t *closing, int32_t unmet, int32_t lim,
                      units_t *b, uint64_t *own)
{
    walk_from(w, start);
    int32_t nf = 1, links = 0;
    *own = 0;
    while (nf && links + 1 < lim) {
        if (units_spent(b, b->units + *own + (uint64_t)nf)) return SWEEP_SPENT;
        *own += (uint64_t)nf;
        links++;
        int32_t nn = next_layer(w, nf, 0);
        /* the layer's closing states, in the order met */
        for (int32_t i = 0; i < nn; i++) {
            if (!(w->nxt[i] & 1) || !closing[w->nxt[i] >> 1]) continue;
            if (links >= 3) return SWEEP_KEPT;
            if (--unmet == 0) return SWEEP_COUNTED;
        }
        swap_layers(w);
        nf = nn;
    }
    return SWEEP_COUNTED;
}

/* The continuous nice loops' sweep (shudu.logic.techniques.grouped_chains._closed_loops) in one call: from each
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
    int32_t lim;
    units_t b;
    if (read_walk(starts, args + 2, NULL, "chain_sweep", NULL, &lim, &b)) return NULL;
    const size_t states = 2 * (size_t)g->nodes;
    walk_t w = {g, (uint32_t *)calloc(states, sizeof(uint32_t)), 0, NULL,
                (int32_t *)malloc(states * sizeof(int32_t)),
                (int32_t *)malloc(states * sizeof(int32_t))};
    uint8_t *closing = (uint8_t *)calloc((size_t)g->nodes + 1, 1);
    PyObject *keep = PyList_New(0), *result = NULL;
    if (!w.seen || !w.frontier || !w.nxt || !closing || !keep) {
        if (keep) PyErr_NoMemory();
        goto done;
    }
    int spent = 0;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(starts) && !spent; k++) {
        int32_t start;
        if (read_start(g, starts, k, "chain_sweep", &start)) goto done;
        /* the nodes weakly linked to the start, each counted once */
        int32_t wfrom = g->first[2 * start + 1], wto = g->first[2 * start + 2], unmet = 0;
        for (int32_t j = wfrom; j < wto; j++)
            if (!closing[g->adj[j]]) {
                closing[g->adj[j]] = 1;
                unmet++;
            }
        uint64_t own; /* this start's units */
        int outcome = sweep_from(&w, start, closing, unmet, lim, &b, &own);
        for (int32_t j = wfrom; j < wto; j++) closing[g->adj[j]] = 0;
        if (outcome == SWEEP_SPENT) {
            spent = 1;
        } else if (outcome == SWEEP_KEPT) {
            if (PyList_Append(keep, PyList_GET_ITEM(starts, k))) goto done;
        } else {
            b.units += own;
        }
    }
    int code = spent ? CHAIN_STOPPED : CHAIN_NONE;
    result = Py_BuildValue("(iKO)", code, (unsigned long long)b.units, keep);
done:
    Py_XDECREF(keep);
    free(w.seen);
    free(w.frontier);
    free(w.nxt);
    free(closing);
    return result;
}
