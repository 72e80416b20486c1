/*
 * The lines of a forcing step (shudu.logic.engine.implications.Trace) in C.  Include after <Python.h>.
 */
#ifndef SHUDU_CORE_TRACE_H
#define SHUDU_CORE_TRACE_H

#include <Python.h>

/* trace(tables, cands, where, placed, values, empty, cell, digit, nrules, keep, seconds, nodes)
 *   -> (code, settles, lines, broken, placed, gone): digit assumed in cell and followed as
 *   Trace.run follows it with singles and the first nrules rules of the forcing nets (5: with a
 *   forcing-net contradiction inside as the fifth, its settles counted against seconds and
 *   nodes, < 0: no limit).  code 0 settled, 1 broken, 2 stopped (the inner searches ran past
 *   the limits); settles: the inner searches' settles, -1 when the fifth rule never ran.
 *   lines: (cell, digit, on, causes, kind, rule, house, cells) each, kind as numbered in
 *   shudu.logic.engine.implications (without keep, where the grid broke, only the lines its branch
 *   needs, renumbered); broken: None or (kind, a, b, causes) (kind 0: cell a has no
 *   candidate, 1: digit index a has no place in house b); with keep, placed (per cell, its
 *   placement's line or -1) and gone (per cell * n + digit index, the line that removed it or
 *   -1), else None for both. */
PyObject *shudu_trace(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
