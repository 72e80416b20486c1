"""The techniques: one module per family, each with the finders of its steps.

A finder takes a :class:`~shudu.logic.engine.grid.CandidateGrid` and returns the first
:class:`~shudu.logic.engine.step.Step` of its technique or None; a listing (``iter_…``) gives every
step. They are put in solving order in :mod:`shudu.logic.table`; no technique imports the table,
the rating, the explanations or the listings of every step.
"""
