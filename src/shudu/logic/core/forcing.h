/*
 * The forcing chains and nets (shudu.logic.techniques.forcing) in C: every candidate followed with singles
 * (and the net's rules), then the shortest contradictions or the cheapest verities.  Include
 * after <Python.h>.
 */
#ifndef SHUDU_CORE_FORCING_H
#define SHUDU_CORE_FORCING_H

#include <Python.h>

/* forcing(tables, cands, where, placed, values, empty, nrules, quiet, contradictions) ->
 *   (True, steps, [(cell, digit)]): the assumptions that break the grid in the fewest steps; or
 *   (False, cost, [(choice, placements, eliminations)]): the cheapest choices whose outcomes
 *   agree, choice indexing forcing._choices of the grid, placements and eliminations as
 *   [(cell, digit)] (placements: one step each; else the eliminations are one step) */
PyObject *shudu_forcing(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* nested(tables, cands, where, placed, values, empty, cell, digit, quiet, seconds, nodes) ->
 *   (code, steps, inner, settles): the assumption followed with singles, the net's rules and a
 *   forcing-net contradiction inside (forcing._nested_py), the grid left as it is; code 0
 *   settled, 1 broken, 2 stopped (the inner searches ran past seconds, or would run more than
 *   nodes settles; < 0: no limit); inner: the deductions made inside; settles: the inner
 *   settles run */
PyObject *shudu_nested(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* nishio(tables, where, placed) -> None or (deductions, [(cell, digit index)]): the one-digit
 * contradictions in the fewest deductions (nishio._shortest_py) */
PyObject *shudu_nishio(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* first_contradiction(tables, cands, where, placed, values, empty, seconds, nodes) -> (code,
 * settles, (cell, digit) or None): the rule a nested net adds (shudu.logic.techniques.forcing
 * .forcing_net_inside), on a settled grid; code 0 none, 1 found, 2 stopped past seconds or
 * nodes settles */
PyObject *shudu_first_contradiction_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
