/*
 * The chains' breadth-first search (shudu.logic.techniques.aic.layers) in C.  Include after <Python.h>.
 */
#ifndef SHUDU_CORE_CHAINBFS_H
#define SHUDU_CORE_CHAINBFS_H

#include <Python.h>

/* The code of a whole search (chain_search) or sweep (chain_sweep, never CHAIN_FOUND). */
enum { CHAIN_NONE = 0, CHAIN_FOUND = 1, CHAIN_STOPPED = 2 };

/* chain_graph(strong, weak) -> graph: two dicts, node -> its linked nodes (a list or a set) */
PyObject *shudu_chain_graph(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* chain_ends(tables, cands, where, groups, base, proves) -> ends: what the ends of a chain
 * prove, for chain_bfs; groups: the (cells, digit) of the nodes from base on */
PyObject *shudu_chain_ends(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* chain_weak(tables, nodes, cells, digits, cands, base, in_cell) -> per node, its weak links
 * (shudu.logic.techniques.grouped_graph.Graph._weak); cells and digits per node, or (digits None) cells the
 * group nodes' (cells, digit) from base on, a node below base being cell * n + digit */
PyObject *shudu_chain_weak(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* chain_bfs(graph, start, limit[, only]) -> search: a search from start "off", up to limit
 * links; only (None: every "on" state): True, the states of nodes weakly linked to the start;
 * chain_ends, the states that with the start prove something */
PyObject *shudu_chain_bfs(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* chain_search(graph, starts, limit, ends, seconds, nodes[, group_base]) -> (code, units, chain):
 * the first chain from each start in turn that proves something, each shorter than the last
 * (code CHAIN_NONE, CHAIN_FOUND, or CHAIN_STOPPED past seconds or nodes units of frontier);
 * chain: its states, or None.  With group_base, a start's first chain counts only if it goes through a node from
 * group_base on (a grouped chain's group node). */
PyObject *shudu_chain_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* chain_sweep(graph, starts, limit, seconds, nodes) -> (code, units, kept): the continuous nice
 * loops' sweep (shudu.logic.techniques.grouped_chains._closed_loops): the starts (in order) whose loops close at
 * three links or more, left to Python; units: the other starts' frontiers (code CHAIN_NONE, or
 * CHAIN_STOPPED past seconds or nodes units) */
PyObject *shudu_chain_sweep(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* chain_bfs_layer(search) -> (frontier size, "on" states met) of its next layer, or None */
PyObject *shudu_chain_bfs_layer(PyObject *module, PyObject *search);
/* chain_bfs_edges(search, from) -> the (state, parent) pairs met, from pair number from on, as
 * int32 words in bytes */
PyObject *shudu_chain_bfs_edges(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* loop_strong(tables, where, digits, groups, strong) -> groups: the loop graph's strong links of
 * each digit's houses (shudu.logic.techniques.grouped_graph.Graph._strong_py) added to the dict strong (node ->
 * set of nodes) in the order Python adds them, and the group nodes made, as (cells, digit), in
 * the order they are numbered */
PyObject *shudu_loop_strong(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
