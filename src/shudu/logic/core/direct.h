/*
 * The cell and house forcing chains over direct links (shudu.logic.techniques.static_forcing) in C: every
 * conclusion with the fewest nodes that reach it.  Include after <Python.h>.
 */
#ifndef SHUDU_CORE_DIRECT_H
#define SHUDU_CORE_DIRECT_H

#include <Python.h>

/* direct_forcing(tables, cands, where, empty) -> [(nodes, cell, digit index, on, choice)]:
 * tables from settle_tables; choice indexes static_forcing._choices of the grid */
PyObject *shudu_direct_forcing(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
