"""Forcing chains and nets: the last resort that makes every valid puzzle solvable step by step.

Each candidate is assumed true in turn and the consequences followed (singles only for a forcing
chain, singles plus the basic techniques for a forcing net). An assumption that breaks the grid is
false. Where every candidate of a cell, or every place of a digit in a house, leads to the same
placement or elimination, that result holds. A nested forcing net follows an assumption with the
net's rules and, where they stall, with forcing-net contradictions inside it. When even that finds
nothing, a trial by search settles one cell ("Brute Force"), so the path always completes.
"""

from __future__ import annotations

from typing import NamedTuple

from ...notation import digit_char
from ...solvers.base import Budget, SearchTimeout
from ...solvers.constraints import solutions_from
from ..engine.budget import LogicTimeout, c_limits, c_spent, checkpoint, remaining_seconds
from ..engine.chain_structure import Branch, Net
from ..engine.grid import CandidateGrid, bits
from ..engine.implications import conclusion_branch, contradiction_branch
from ..engine.memo import remembered, remembered_steps
from ..engine.propagate import (
    C_BROKEN,
    C_STOPPED,
    STOPPED,
    Outcome,
    Rule,
    c_settle,
    is_quiet,
    settle,
    value_planes,
)
from ..engine.step import Candidate, Step, describe_outcome, make_step
from .netrules import NET_RULES


@remembered_steps
def iter_forcing_chain(grid: CandidateGrid) -> list[Step]:
    """Forcing chains: follow singles from each candidate (contradictions, cell and house forcing)."""
    return _forcing(grid, (), "Forcing Chain")


def find_forcing_chain(grid: CandidateGrid) -> Step | None:
    found = iter_forcing_chain(grid)
    return found[0] if found else None


@remembered_steps
def iter_forcing_net(grid: CandidateGrid) -> list[Step]:
    """Forcing nets: as forcing chains, but following pointing, claiming and pairs too."""
    return _forcing(grid, NET_RULES, "Forcing Net")


def find_forcing_net(grid: CandidateGrid) -> Step | None:
    found = iter_forcing_net(grid)
    return found[0] if found else None


def _forcing(
    grid: CandidateGrid, rules: tuple[Rule, ...], name: str, *, contradictions: bool = True
) -> list[Step]:
    """The forcing steps with ``rules``: the shortest contradictions (unless ``contradictions``
    is false), else the cheapest cell or house verities. Every step tied for shortest or
    cheapest is listed, so that which one a path takes is for
    :func:`~shudu.logic.solver.chosen` to decide, never the order the cells are tried in."""
    quiet = is_quiet(grid)
    found = _found(grid, rules, quiet=quiet, contradictions=contradictions)
    if found.contradiction:
        steps = [
            contradiction_step(
                grid, rules, f"{name} (contradiction)", cell, d, found.least, kind=name + " Contradiction"
            )
            for cell, d in found.ties
        ]
        shortest = min(step.length for step in steps)
        return [step for step in steps if step.length == shortest]
    # the net is traced (slowly, every line kept) for the cheapest verities only
    out = []
    choices = _choices(grid) if found.verities else []
    for index, agreed in found.verities:
        options, h = choices[index]
        if h is None:
            label, houses = f"whichever digit {grid.name(options[0][0])} holds", []
        else:
            house = grid.geometry.houses[h].name
            label, houses = f"wherever {digit_char(options[0][1] + 1)} goes in {house}", [house]
        results = [settle(grid.copy(), rules, start=(c, d + 1), quiet=quiet) for c, d in options]
        out += [
            _verity_step(grid, rules, name, found.least, label, options, houses, results, *one)
            for one in agreed
        ]
    return out


#: What the outcomes of a choice agree on: one (placements, eliminations) pair per step.
Agreement = list[tuple[list[Candidate], list[Candidate]]]


#: A choice of a forcing step: its assumptions (cell, digit index), and its house (None: a cell's
#: candidates).
Choice = tuple[list[tuple[int, int]], int | None]


def _open_cells(grid: CandidateGrid) -> list[int]:
    """The open cells in the order they are tried: fewest candidates first, then by index."""
    return sorted(bits(grid.empty), key=lambda c: grid.cands[c].bit_count())


def _choices(grid: CandidateGrid) -> list[Choice]:
    """The choices of the verities, in order: the candidates of each open cell (in the order of
    :func:`_open_cells`), then the places of each digit with two or more in each house."""
    cells = _open_cells(grid)
    choices: list[Choice] = [([(cell, d) for d in bits(grid.cands[cell])], None) for cell in cells]
    for h, hbits in enumerate(grid.t.house_bits):
        for d in range(grid.size):
            spots = grid.where[d] & hbits
            if spots.bit_count() >= 2:
                choices.append(([(c, d) for c in bits(spots)], h))
    return choices


class Found(NamedTuple):
    """What the assumptions of a grid show: the assumptions ``(cell, digit)`` that break it in
    the fewest deductions (``contradiction``; ``least`` is that count), or the cheapest choices
    whose outcomes agree, each with what they agree on (``least`` is their cost)."""

    contradiction: bool
    least: int
    ties: list[tuple[int, int]]
    verities: list[tuple[int, Agreement]]


def _found(grid: CandidateGrid, rules: tuple[Rule, ...], *, quiet: bool, contradictions: bool) -> Found:
    """:class:`Found` of ``grid``: in the C core (``forcing``) where its settle loop follows
    ``rules`` on the geometry (see :func:`~shudu.logic.engine.propagate.settle`); :func:`_found_py` is
    its specification and is used otherwise. The outcome is the same either way."""
    c_args = c_settle(grid.geometry, rules)
    if c_args is None:
        return _found_py(grid, rules, quiet=quiet, contradictions=contradictions)
    core, capsule, nrules = c_args
    checkpoint(sum(grid.cands[c].bit_count() for c in bits(grid.empty)))  # one unit an assumption
    contradiction, least, listed = core.forcing(
        capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty,
        nrules, quiet, contradictions,
    )  # fmt: skip
    if contradiction:
        return Found(True, least, listed, [])
    verities = [
        (index, [([p], []) for p in placements] if placements else [([], eliminations)])
        for index, placements, eliminations in listed
    ]
    return Found(False, least, [], verities)


def _found_py(grid: CandidateGrid, rules: tuple[Rule, ...], *, quiet: bool, contradictions: bool) -> Found:
    """:func:`_found` in Python: the specification of the C core's ``forcing``."""
    outcomes: dict[tuple[int, int], Outcome] = {}

    def outcome(cell: int, d: int, limit: int = 0) -> Outcome:
        key = (cell, d)
        if key in outcomes:
            return outcomes[key]
        checkpoint()
        got = settle(grid.copy(), rules, start=(cell, d + 1), quiet=quiet, limit=limit)
        if got is not STOPPED:
            outcomes[key] = got
        return got

    # 1. an assumption that breaks the grid is false: the shortest such (a longer one need not be
    #    followed to its end), and of those in the fewest deductions, the ones whose traced
    #    branch is shortest (what a player reads, and what the rating counts)
    least: int | None = None
    ties: list[tuple[int, int]] = []
    for cell in _open_cells(grid) if contradictions else ():
        for d in bits(grid.cands[cell]):
            got = outcome(cell, d, 0 if least is None else least + 1)
            if got.grid is None and got is not STOPPED:
                if least is None or got.steps < least:
                    least, ties = got.steps, []
                if got.steps == least:
                    ties.append((cell, d + 1))
    if least is not None:
        return Found(True, least, ties, [])
    # 2. every candidate of a cell, or every place of a digit in a house, agrees on something
    cheapest: list[tuple[int, Agreement]] = []
    least_cost = 0
    for index, (options, _) in enumerate(_choices(grid)):
        results = [outcome(c, d) for c, d in options]
        live = [r for r in results if r.grid is not None]
        if not live:
            continue
        cost = sum(r.steps for r in results)
        if cheapest and cost > least_cost:
            continue
        agreed = _agreement(grid, live)
        if agreed:
            if not cheapest or cost < least_cost:
                cheapest, least_cost = [], cost
            cheapest.append((index, agreed))
    return Found(False, least_cost, [], cheapest)


def _verity_step(
    grid: CandidateGrid,
    rules: tuple[Rule, ...],
    name: str,
    cost: int,
    label: str,
    options: list[tuple[int, int]],
    houses: list[str],
    results: list[Outcome],
    placements: list[Candidate],
    eliminations: list[Candidate],
) -> Step:
    net = _verity_net(grid, rules, options, results, placements, eliminations)
    return make_step(
        grid,
        name,
        f"{label}, the consequences agree",
        structure=net,
        placements=placements,
        eliminations=eliminations,
        cells=sorted({c for c, _ in options}),
        digits=sorted({d + 1 for _, d in options}),
        houses=houses,
        length=net.length(cost + len(options)),
        kind=name + (" (cell)" if not houses else " (house)"),
    )


def contradiction_step(
    grid: CandidateGrid,
    rules: tuple[Rule, ...],
    technique: str,
    cell: int,
    digit: int,
    steps: int,
    kind: str,
    *,
    how: str = "",
) -> Step:
    """The step "``cell`` cannot be ``digit``": its branch from the assumption to the
    contradiction (``how`` says how the assumption was followed, where that differs from the
    branch's rules), shown a line per deduction."""
    branch = contradiction_branch(grid, rules, cell, digit)
    where = f"if {grid.name(cell)} were {digit_char(digit)}{how}"
    if branch is None:  # the slow trace stalled where the fast one broke the grid: say what is known
        branch = Branch(())
        reason = f"{where}, {steps} deductions later the grid breaks"
    else:
        reason = f"{where}, the grid would break"
    net = Net((branch,), outcome=_outcome(grid, [], [(cell, digit)]) if branch.lines else "")
    return make_step(
        grid,
        technique,
        reason,
        structure=net,
        eliminations=[(cell, digit)],
        cells=[cell],
        digits=[digit],
        length=Net((branch,)).length(steps + 1),
        kind=kind,
    )


def _verity_net(
    grid: CandidateGrid,
    rules: tuple[Rule, ...],
    options: list[tuple[int, int]],
    results: list[Outcome],
    placements: list[Candidate],
    eliminations: list[Candidate],
) -> Net:
    """One branch per option: to the contradiction, or to the conclusions the options share."""
    branches = []
    for (cell, d), result in zip(options, results, strict=True):
        if result.grid is None:
            branch = contradiction_branch(grid, rules, cell, d + 1)
        else:
            branch = conclusion_branch(grid, rules, cell, d + 1, placements, eliminations)
        branches.append(branch if branch is not None else Branch(()))
    return Net(tuple(branches), outcome=_outcome(grid, placements, eliminations))


def _outcome(grid: CandidateGrid, placements: list[Candidate], eliminations: list[Candidate]) -> str:
    """What a net proves, in words (``r4c4 cannot be 2``)."""
    return describe_outcome(grid.size, placements, eliminations)


def _agreement(grid: CandidateGrid, live: list[Outcome]) -> Agreement:
    """What every outcome agrees on: each cell they all fill alike (a step each), else every
    candidate they all remove (one step)."""
    # the cells every outcome fills: only there can they agree on a digit
    filled = grid.empty
    for r in live:
        assert r.grid is not None
        filled &= ~r.grid.empty
        if not filled:
            break
    if filled:
        planes = [value_planes(grid, r) for r in live]
        placed: Agreement = []
        for d in range(grid.size):
            same = filled
            for p in planes:
                same &= p[d]
                if not same:
                    break
            placed += [([(cell, d + 1)], []) for cell in bits(same)]
        if placed:
            return sorted(placed)
    eliminations = []
    for d in range(grid.size):
        gone = grid.where[d]
        for r in live:
            assert r.grid is not None
            gone &= ~r.grid.where[d]
            if not gone:
                break
        if gone:  # a candidate an outcome places is not removed there
            for r in live:
                gone &= ~value_planes(grid, r)[d]
        eliminations += [(c, d + 1) for c in bits(gone)]
    return [([], eliminations)] if eliminations else []


@remembered
def find_nested_forcing_net(grid: CandidateGrid) -> Step | None:
    """Nested forcing nets: follow each candidate with singles, the net's rules and, where those
    stall, forcing-net contradictions inside; an assumption that breaks the grid is false."""
    quiet = is_quiet(grid)
    # cheap assumptions first (bivalue cells); the first contradiction is the step
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        for d in bits(grid.cands[cell]):
            checkpoint()
            broken, steps, inner = _nested(grid, cell, d + 1, quiet=quiet)
            if broken and inner:
                where = f"if {grid.name(cell)} were {digit_char(d + 1)}"
                count = f"{inner} of the {steps} deductions by a forcing net inside"
                branch = contradiction_branch(grid, (*NET_RULES, forcing_net_inside), cell, d + 1)
                shown = ", the grid would break" if branch else ", the grid breaks"
                outcome = _outcome(grid, [], [(cell, d + 1)]) if branch else ""
                return make_step(
                    grid,
                    "Nested Forcing Net",
                    f"{where} ({count}){shown}",
                    structure=Net((branch or Branch(()),), outcome=outcome),
                    eliminations=[(cell, d + 1)],
                    cells=[cell],
                    digits=[d + 1],
                    length=steps + 1,
                    kind="Nested Forcing Net Contradiction",
                )
    return None


def _nested(grid: CandidateGrid, cell: int, digit: int, *, quiet: bool) -> tuple[bool, int, int]:
    """``digit`` assumed in ``cell`` and followed with singles, the net's rules and, where those
    stall, a forcing-net contradiction inside (:func:`forcing_net_inside`): whether the grid
    breaks, after how many deductions, and how many of them were made inside. ``grid`` is left
    as it is.

    In the C core (``nested``) where the net's rules run there; :func:`_nested_py` is its
    specification and is used otherwise. Either way each assumption tried inside is one unit of
    the logic budget, and the deadline holds inside."""
    c_args = c_settle(grid.geometry, NET_RULES)
    if c_args is None:
        return _nested_py(grid, cell, digit, quiet=quiet)
    core, capsule, _ = c_args
    code, steps, inner, settles = core.nested(
        capsule, grid.cands, grid.where, grid.placed, grid.values, grid.empty, cell, digit, quiet,
        *c_limits(),
    )  # fmt: skip
    # past the limits, the inner searches stopped
    c_spent(settles, stopped=code == C_STOPPED)
    return code == C_BROKEN, steps, inner


def _nested_py(grid: CandidateGrid, cell: int, digit: int, *, quiet: bool) -> tuple[bool, int, int]:
    """:func:`_nested` in Python: the specification of the C core's ``nested``."""
    inner = 0

    def inner_net(trial: CandidateGrid) -> list[tuple[int, int]]:
        # ``settle`` calls its rules only once no single is left, so ``trial`` is quiet here.
        nonlocal inner
        found = _first_contradiction(trial, NET_RULES, quiet=True)
        inner += found is not None
        return [found] if found else []

    got = settle(grid.copy(), (*NET_RULES, inner_net), start=(cell, digit), quiet=quiet)
    return got.grid is None, got.steps, inner


def forcing_net_inside(trial: CandidateGrid) -> list[tuple[int, int]]:
    """The rule a nested net adds: a forcing-net contradiction found inside the assumption
    (``trial`` settled). One call of the C core (``first_contradiction``, each assumption one
    unit of the logic budget, as in Python) where the net's rules run there;
    :func:`_first_contradiction` is its specification."""
    c_args = c_settle(trial.geometry, NET_RULES)
    if c_args is None:
        found = _first_contradiction(trial, NET_RULES, quiet=True)
    else:
        core, capsule, _ = c_args
        code, settles, found = core.first_contradiction(
            capsule, trial.cands, trial.where, trial.placed, trial.values, trial.empty, *c_limits()
        )
        c_spent(settles, stopped=code == C_STOPPED)
    return [found] if found else []


# the C core's trace follows this rule itself, after the net's four (implications._c_trace)
forcing_net_inside.c_inner = True  # type: ignore[attr-defined]


def _first_contradiction(
    grid: CandidateGrid, rules: tuple[Rule, ...], *, quiet: bool
) -> tuple[int, int] | None:
    """The first candidate ``(cell, digit)`` (bivalue cells first) whose assumption, followed
    with singles and ``rules``, breaks ``grid``; or None."""
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        for d in bits(grid.cands[cell]):
            checkpoint()
            if settle(grid.copy(), rules, start=(cell, d + 1), quiet=quiet).grid is None:
                return cell, d + 1
    return None


@remembered
def find_brute_force(grid: CandidateGrid) -> Step | None:
    """Settle an open cell by search, the last resort of all: the cell's one candidate that
    leads to a solution.

    Open cells are tried fewest candidates first. On a board with one solution the first cell
    settles. On a board with several, a cell two of whose candidates lead to solutions is not
    settled by any of them; such cells are passed over, and where every open cell is one, there
    is no step (the path stops where logic does; the solutions found on the way tell which cells
    to pass over without a search). No step either on a board with no solution."""
    found: list[list[int]] = []
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        leading = {solution[cell] for solution in found}
        for d in bits(grid.cands[cell]):
            if len(leading) > 1:
                break
            if d + 1 in leading:
                continue
            trial = grid.copy()
            trial.place(cell, d + 1)
            solution = search(trial)
            if solution is not None:
                found.append(solution)
                leading.add(d + 1)
        if not leading:
            return None  # no candidate of this cell leads to a solution: the board has none
        if len(leading) == 1:
            (digit,) = leading
            return make_step(
                grid,
                "Brute Force",
                f"trying the candidates of {grid.name(cell)} by search, "
                f"only {digit_char(digit)} leads to a solution",
                placements=[(cell, digit)],
                cells=[cell],
                digits=[digit],
            )
    return None


def search(grid: CandidateGrid) -> list[int] | None:
    """A solution of ``grid`` that respects its candidates (singles, then guesses), or None.

    A grid with constraint rules is searched by the constraint engine, which keeps them all."""
    checkpoint()
    if grid.t.rules is not None:
        return _rule_search(grid)
    if settle(grid).grid is None:
        return None
    if not grid.empty:
        return grid.values
    cell = min(bits(grid.empty), key=lambda c: grid.cands[c].bit_count())
    for d in bits(grid.cands[cell]):
        trial = grid.copy()
        trial.place(cell, d + 1)
        found = search(trial)
        if found is not None:
            return found
    return None


def _rule_search(grid: CandidateGrid) -> list[int] | None:
    """:func:`search` for a grid with constraint rules: solver ``constraints`` from the grid's
    candidates, within the time left (LogicTimeout past it)."""
    domains = [1 << (v - 1) if v else m for v, m in zip(grid.values, grid.cands, strict=True)]
    if not all(domains):
        return None
    left = remaining_seconds()
    if left is not None and left <= 0:
        raise LogicTimeout("time limit reached")
    try:
        found = next(solutions_from(grid.geometry, domains, budget=Budget.of(None, left)), None)
    except SearchTimeout:
        raise LogicTimeout("time limit reached while searching") from None
    return None if found is None else list(found)
