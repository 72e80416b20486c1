"""The logic engine: what every technique stands on, and nothing that finds a step.

The candidate grid (:mod:`.grid`) and the rules' tables it carries (:mod:`.rule_tables`), a
player's board (:mod:`.board`), the steps and their chains (:mod:`.step`, :mod:`.chain_structure`),
following an assumption (:mod:`.propagate`, :mod:`.implications`), deadlines and work budgets
(:mod:`.budget`), the answers remembered within one rating (:mod:`.memo`) and the fingerprint of
a grid that its isomorphs share (:mod:`.invariant`). No module here imports a technique.
"""
