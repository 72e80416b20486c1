/*
 * What the chain files share (chainbfs.c, chainsearch.c, chainlinks.c): a chain graph read once
 * (chain_graph), what a chain's two ends prove (chain_ends), and the test of a pair of ends.
 * Internal: the Python entry points are declared in chainbfs.h.
 */
#ifndef SHUDU_CORE_CHAINS_H
#define SHUDU_CORE_CHAINS_H

#include <Python.h>

#include <stdint.h>

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
/* A Python int read as a node id of a chain graph (ValueError when out of range): 0 or -1. */
SHUDU_HIDDEN int chain_node_id(PyObject *x, int32_t *out);

/* What the ends of a chain prove (shudu.logic.techniques.aic._outcome, shudu.logic.techniques.grouped_chains._ends): the
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
/* (static: the hot test of chainbfs.c's layers and chainsearch.c's search, inlined in each) */
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

#endif
