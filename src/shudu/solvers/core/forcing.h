/*
 * The forcing chains and nets (shudu.logic.forcing) in C: every candidate followed with singles
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

#endif
