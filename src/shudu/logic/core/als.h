/*
 * The solving path's almost-locked-set finders (shudu.logic.techniques.als_first) in C.  Include after
 * <Python.h>.
 */
#ifndef SHUDU_CORE_ALS_H
#define SHUDU_CORE_ALS_H

#include <Python.h>

/* als(tables, cands, where, empty, max_cells, finder, seconds, nodes) -> (code, units, step):
 * finder 0 ALS-XZ, 1 ALS-XY-Wing, 2 Death Blossom; code 0 no step, 1 a step, 2 stopped (past
 * seconds, or more than nodes units; < 0: no limit); step: (sets as (cells, digits, house),
 * x, y, stem, z, [(cell, digit)] eliminations) */
PyObject *shudu_als(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* als_sets(tables, cands, where, empty, max_cells, want, seconds, nodes) -> (code, units, found):
 * the sets of up to max_cells cells as shudu.logic.techniques.als_listings._list_sets_py lists them (want 0: each as
 * (cells, digits, house, holding, seeing)), or their links as als._links_of_py finds them (want
 * 1: between disjoint sets, 2: overlapping sets too; per set a dict of set index to restricted
 * commons; want 3: the ALS-XY-Wings of als._xy_wing_hits_py over any sets, as (pivot, wing, wing,
 * x, y, [(cell, digit)]), a unit a pivot's partner, the sets listed uncounted); code 0 done, 2
 * stopped (found None) */
PyObject *shudu_als_sets(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
