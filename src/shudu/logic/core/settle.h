/*
 * The forcing nets' propagation (shudu.logic.engine.propagate.settle) in C: singles found round by
 * round, then the first step of pointing, claiming, naked pair and hidden pair (the rules of
 * shudu.logic.techniques.netrules, in their search order).  settle.c holds the loop, settle_tables.c the
 * tables and grids, singles.c the rounds of singles, patterns.c the basic patterns.  The Python code is the specification: the
 * outcome here is the same, field by field.  Include after <Python.h>.
 */
#ifndef SHUDU_CORE_SETTLE_H
#define SHUDU_CORE_SETTLE_H

#include <Python.h>

/* The code of singles (settle's are settle_tables.h's S_SETTLED, S_BROKEN and S_STOPPED). */
enum { R_SETTLED = 0, R_CLASH = 1, R_ROUNDS = 2 };

/* settle_tables(size, house_bits, peer_bits, cell_houses, boxlike, overlaps) -> capsule */
PyObject *shudu_settle_tables(PyObject *module, PyObject *args);
/* settle(tables, cands, where, placed, values, empty, start_cell, start_digit, quiet, limit,
 *        nrules) -> (code, steps, empty); code S_SETTLED (0), S_BROKEN (1, a contradiction) or
 *        S_STOPPED (2) */
PyObject *shudu_settle(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* start(tables, values) -> (cands, where, placed, empty): the grid of some placed digits, as
 * shudu.logic.engine.grid.start_py (its specification) builds it */
PyObject *shudu_start(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* singles(tables, cands, where, placed, values, empty, kinds, max_rounds, waiting, stamp)
 *   -> (code, empty, log, stamp): rounds of singles (shudu.logic.techniques.singles_tallies); code R_SETTLED:
 * no kind has a single, R_CLASH: stopped before a round whose singles clash, R_ROUNDS:
 * max_rounds reached; log: (kind position, count) a round; waiting (a writable buffer of ncells * n uint32, read only
 * with kind 4) and stamp: the hidden singles' queue (singles_rounds.Waiting) */
PyObject *shudu_singles(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* locked(tables, cands, where, placed, values, empty, pointing) -> the patterns of
 * shudu.logic.techniques.intersections.locked: [(rank, digit index, a, b, inside, out)] */
PyObject *shudu_locked(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* subsets(tables, cands, where, placed, values, empty, k, mode) -> the subsets of
 * shudu.logic.techniques.subsets (mode 0 naked, 1 locked, 2 hidden): [(house, cells, digits)] */
PyObject *shudu_subsets(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
