/*
 * shudu._core_c -- the C core: the CPython module (types, argument parsing, batches and their
 * threads) over the compiled search engines behind solvers "fast" and "constraints" and the
 * logic engine's hot loops.  shudu._backend loads it (or, with SHUDU_IMPLEMENTATION=python,
 * does not) for the solvers and the logic engine alike.
 *
 * The search engines live under solvers/core/: solvers/core/general.c (any houses and links,
 * n = 4..25) and solvers/core/band9.c (the standard 9x9 grid), both running the one resumable
 * search of solvers/core/search_loop.h behind the engine interface of solvers/core/common.h,
 * and the constraint engine (solvers/core/constraints*.c).  The logic engine's loops live
 * under logic/core/ (settle, the forcing chains and nets, fish, ALS, chains, traces, the
 * fingerprint's rounds), each beside the Python code that is its specification.
 * docs/core.md maps the parts and states what the pure-Python twin,
 * shudu/solvers/_fast_py.py, promises: the same solutions in the same order and the same
 * counters.
 *
 * This file registers the module: its functions (the logic engine's loops, the test hooks),
 * types and constants.  The rest of the module lives beside it, sharing _core.h:
 * _core_shape.c (Shape), _core_search.c (Search, budgets and the signal poll, the 9x9 engine's
 * test hooks), _core_batch.c (Shape.solve_many: reading puzzle text, worker threads) and
 * _core_constraints.c (ConstraintSearch, constraint_propagate).
 *
 * Everything a search touches lives in objects the caller owns: there is no global
 * mutable state, and the GIL is released while searching.  Nothing the caller passes is
 * trusted: bad sizes, lengths or characters raise ValueError.
 *
 * A search called from the main thread takes the GIL back for a moment every
 * POLL_SECONDS or so (at its budget checkpoints, solvers/core/common.h) to run
 * PyErr_CheckSignals: Ctrl-C ends it with KeyboardInterrupt, and the search object stays
 * usable (docs/core.md, "Signals and deadlines").
 */
#include "_core.h"

#include "logic/core/settle.h"
#include "logic/core/direct.h"
#include "logic/core/forcing.h"
#include "logic/core/als.h"
#include "logic/core/fish.h"
#include "logic/core/chainbfs.h"
#include "logic/core/trace.h"
#include "logic/core/refine.h"

/* ------------------------------------------------------------------------ */
/* Module                                                                   */
/* ------------------------------------------------------------------------ */

static PyMethodDef core_methods[] = {
    {"_propagate9", (PyCFunction)core_propagate9, METH_O,
     "_propagate9(givens: bytes) -> 81 digit masks after the 9x9 engine's propagation, or "
     "None (for tests)"},
    {"_band_tables", (PyCFunction)core_band_tables, METH_NOARGS,
     "_band_tables() -> (BAND_KEEP, TRIAD_KEEP, ROW_BOX_OTHERS) of the 9x9 engine (for tests)"},
    {"settle_tables", (PyCFunction)shudu_settle_tables, METH_VARARGS,
     "settle_tables(size, house_bits, peer_bits, cell_houses, boxlike, overlaps) -> tables"},
    {"settle", (PyCFunction)(void (*)(void))shudu_settle, METH_FASTCALL,
     "settle(tables, cands, where, placed, values, empty, start_cell, start_digit, quiet, "
     "limit, nrules) -> (code, steps, empty): shudu.logic.engine.propagate.settle in C"},
    {"start", (PyCFunction)(void (*)(void))shudu_start, METH_FASTCALL,
     "start(tables, values) -> (cands, where, placed, empty): the grid of some placed digits, "
     "shudu.logic.engine.grid.start_py in C"},
    {"singles", (PyCFunction)(void (*)(void))shudu_singles, METH_FASTCALL,
     "singles(tables, cands, where, placed, values, empty, kinds, max_rounds, waiting, stamp) -> "
     "(code, empty, log, stamp): rounds of singles, shudu.logic.techniques.singles_tallies in C"},
    {"locked", (PyCFunction)(void (*)(void))shudu_locked, METH_FASTCALL,
     "locked(tables, cands, where, placed, values, empty, pointing) -> the patterns of "
     "shudu.logic.techniques.intersections.locked"},
    {"subsets", (PyCFunction)(void (*)(void))shudu_subsets, METH_FASTCALL,
     "subsets(tables, cands, where, placed, values, empty, k, mode) -> the patterns of "
     "shudu.logic.techniques.subsets (mode 0 naked, 1 locked, 2 hidden)"},
    {"direct_forcing", (PyCFunction)(void (*)(void))shudu_direct_forcing, METH_FASTCALL,
     "direct_forcing(tables, cands, where, empty) -> [(nodes, cell, digit index, on, choice)]: "
     "the conclusions of shudu.logic.techniques.static_forcing in C"},
    {"forcing", (PyCFunction)(void (*)(void))shudu_forcing, METH_FASTCALL,
     "forcing(tables, cands, where, placed, values, empty, nrules, quiet, contradictions) -> "
     "the shortest contradictions or the cheapest verities of shudu.logic.techniques.forcing in C"},
    {"nested", (PyCFunction)(void (*)(void))shudu_nested, METH_FASTCALL,
     "nested(tables, cands, where, placed, values, empty, cell, digit, quiet, seconds, nodes) -> "
     "(code, steps, inner, settles): an assumption of shudu.logic.techniques.forcing's nested nets in C"},
    {"first_contradiction", (PyCFunction)(void (*)(void))shudu_first_contradiction_call, METH_FASTCALL,
     "first_contradiction(tables, cands, where, placed, values, empty, seconds, nodes) -> (code, "
     "settles, found): the forcing-net contradiction inside of shudu.logic.techniques.forcing in C"},
    {"trace", (PyCFunction)(void (*)(void))shudu_trace, METH_FASTCALL,
     "trace(tables, cands, where, placed, values, empty, cell, digit, nrules, keep, seconds, "
     "nodes) -> (code, settles, lines, broken, placed, gone): the lines of "
     "shudu.logic.engine.implications.Trace in C"},
    {"nishio", (PyCFunction)(void (*)(void))shudu_nishio, METH_FASTCALL,
     "nishio(tables, where, placed) -> the shortest one-digit contradictions of "
     "shudu.logic.techniques.nishio in C"},
    {"als", (PyCFunction)(void (*)(void))shudu_als, METH_FASTCALL,
     "als(tables, cands, where, empty, max_cells, finder, seconds, nodes) -> (code, units, step): "
     "the first step of an almost-locked-set finder of shudu.logic.techniques.als_first in C"},
    {"als_sets", (PyCFunction)(void (*)(void))shudu_als_sets, METH_FASTCALL,
     "als_sets(tables, cands, where, empty, max_cells, want, seconds, nodes) -> (code, units, found): "
     "the almost locked sets of shudu.logic.techniques.als_listings (want 0), their links (1: disjoint, 2: overlapping) "
     "or the ALS-XY-Wings over them (3)"},
    {"fish", (PyCFunction)(void (*)(void))shudu_fish, METH_FASTCALL,
     "fish(tables, where, rows, columns, k, finned, fin_lines) -> None or (across, base, cover): "
     "the first fish of one digit of shudu.logic.techniques.fish in C"},
    {"fishes", (PyCFunction)(void (*)(void))shudu_fishes, METH_FASTCALL,
     "fishes(tables, where, k, base_pool, cover_pool, max_fins, max_endo) -> (units, fish): every "
     "fish of one digit of shudu.logic.techniques.complex_fish in C"},
    {"chain_graph", (PyCFunction)(void (*)(void))shudu_chain_graph, METH_FASTCALL,
     "chain_graph(strong, weak) -> graph: a chain search's links, read once"},
    {"chain_weak", (PyCFunction)(void (*)(void))shudu_chain_weak, METH_FASTCALL,
     "chain_weak(tables, nodes, cells, digits, cands, base, in_cell) -> the weak links of "
     "shudu.logic.techniques.grouped_graph.Graph in C"},
    {"chain_search", (PyCFunction)(void (*)(void))shudu_chain_search, METH_FASTCALL,
     "chain_search(graph, starts, limit, ends, seconds, nodes) -> (code, units, chain): "
     "shudu.logic.techniques.aic._search in C"},
    {"chain_sweep", (PyCFunction)(void (*)(void))shudu_chain_sweep, METH_FASTCALL,
     "chain_sweep(graph, starts, limit, seconds, nodes) -> (code, units, kept): the continuous "
     "nice loops' sweep of shudu.logic.techniques.grouped_chains in C"},
    {"chain_ends", (PyCFunction)(void (*)(void))shudu_chain_ends, METH_FASTCALL,
     "chain_ends(tables, cands, where, groups, base, proves) -> ends: what a chain's two ends "
     "prove, for chain_bfs"},
    {"loop_strong", (PyCFunction)(void (*)(void))shudu_loop_strong, METH_FASTCALL,
     "loop_strong(tables, where, digits, groups, strong) -> groups: the loop graph's strong links "
     "of each digit's houses added to strong in the order Python adds them, and the group nodes made"},
    {"chain_bfs", (PyCFunction)(void (*)(void))shudu_chain_bfs, METH_FASTCALL,
     "chain_bfs(graph, start, limit[, only]) -> search: shudu.logic.techniques.aic.layers in C"},
    {"chain_bfs_layer", (PyCFunction)shudu_chain_bfs_layer, METH_O,
     "chain_bfs_layer(search) -> (frontier size, states met on) of the next layer, or None"},
    {"chain_bfs_edges", (PyCFunction)(void (*)(void))shudu_chain_bfs_edges, METH_FASTCALL,
     "chain_bfs_edges(search, start) -> the (state, parent) pairs met from pair start, as bytes"},
    {"constraint_propagate", (PyCFunction)core_constraint_propagate, METH_VARARGS,
     "constraint_propagate(size, records, domains) -> domains after the constraint engine's "
     "propagation to a fixed point, or None (for tests)"},
    {"refine", (PyCFunction)(void (*)(void))shudu_refine, METH_FASTCALL,
     "refine(tables, cands, where, placed, values, empty, cells, digits, houses) -> (fingerprint, "
     "cells, digits, houses): a round of logic.engine.invariant.refinements"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, .m_name = "shudu._core_c",
    .m_doc = "The C core of shudu: the solvers' search engines and the logic engine's loops "
              "(see shudu._backend).",
    .m_size = 0,
    .m_methods = core_methods,
};

/* The codes the module hands out, by name (shudu.notation mirrors them). */
static const struct {
    const char *name;
    int value;
} CORE_CODES[] = {
    {"BATCH_NONE", ST_NONE},          {"BATCH_UNIQUE", ST_UNIQUE},
    {"BATCH_MULTIPLE", ST_MULTIPLE},  {"BATCH_SOLVED", ST_SOLVED},
    {"BATCH_TIMEOUT", ST_TIMEOUT},    {"RUN_EXHAUSTED", RUN_EXHAUSTED},
    {"RUN_SOLUTION", RUN_SOLUTION},   {"RUN_BUDGET", RUN_BUDGET},
    {"RUN_NOMEM", RUN_NOMEM},         {"STOPPED", CALL_STOPPED},
    {"EXHAUSTED", CALL_EXHAUSTED},    {"BUDGET", CALL_BUDGET},
    {"THREADS", SHUDU_THREADS},
};

PyMODINIT_FUNC
PyInit__core_c(void)
{
    if (PyType_Ready(&ShapeType) < 0 || PyType_Ready(&SearchType) < 0 ||
        PyType_Ready(&ConstraintSearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&ShapeType);
    if (PyModule_AddObject(m, "Shape", (PyObject *)&ShapeType) < 0) {
        Py_DECREF(&ShapeType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&ConstraintSearchType);
    if (PyModule_AddObject(m, "ConstraintSearch", (PyObject *)&ConstraintSearchType) < 0) {
        Py_DECREF(&ConstraintSearchType);
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof(CORE_CODES) / sizeof(CORE_CODES[0]); i++)
        if (PyModule_AddIntConstant(m, CORE_CODES[i].name, CORE_CODES[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    if (PyModule_AddStringConstant(m, "DIGITS", SHUDU_DIGITS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SIZE", MAX_N) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
