/*
 * A round of the colour refinement of shudu.logic.engine.invariant.refinements in C.  Include after
 * <Python.h>.
 */
#ifndef SHUDU_CORE_REFINE_H
#define SHUDU_CORE_REFINE_H

#include <Python.h>

/* refine(tables, cands, where, placed, values, empty, cells, digits, houses)
 *   -> (fingerprint, cells, digits, houses): one round of the refinement from the colours given
 * (lists or tuples of ints, one per cell, digit and house), the new colours (tuples) and the
 * round's fingerprint, each the value the Python specification computes */
PyObject *shudu_refine(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
