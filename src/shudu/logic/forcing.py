"""Forcing chains and nets: the last resort that makes every valid puzzle solvable step by step.

Each candidate is assumed true in turn and the consequences followed (singles only for a forcing
chain, singles plus the basic techniques for a forcing net). An assumption that breaks the grid is
false. Where every candidate of a cell, or every place of a digit in a house, leads to the same
placement or elimination, that result holds. A nested forcing net follows an assumption with the
net's rules and, where they stall, with forcing-net contradictions inside it. When even that finds
nothing, a trial by search settles one cell ("Brute Force"), so the path always completes.
"""

from __future__ import annotations

from ..notation import digit_char
from .budget import checkpoint
from .chain import Branch, Net
from .grid import CandidateGrid, bits
from .implications import conclusion_branch, contradiction_branch
from .memo import remembered, remembered_steps
from .netrules import NET_RULES
from .propagate import STOPPED, Outcome, Rule, is_quiet, settle, value_planes
from .step import Candidate, Step, make_step


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


find_forcing_chain.every = iter_forcing_chain  # type: ignore[attr-defined]
find_forcing_net.every = iter_forcing_net  # type: ignore[attr-defined]


def _forcing(
    grid: CandidateGrid, rules: tuple[Rule, ...], name: str, *, contradictions: bool = True
) -> list[Step]:
    """The forcing steps with ``rules``: the shortest contradictions (unless ``contradictions``
    is false), else the cheapest cell or house verities. Every step tied for shortest or
    cheapest is listed, so that which one a path takes is for
    :func:`~shudu.logic.solver.chosen` to decide, never the order the cells are tried in."""
    n = grid.size
    quiet = is_quiet(grid)
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

    open_cells = sorted(bits(grid.empty), key=lambda c: grid.cands[c].bit_count())
    # 1. an assumption that breaks the grid is false: the shortest such (a longer one need not be
    #    followed to its end), and of those in the fewest deductions, the ones whose traced
    #    branch is shortest (what a player reads, and what the rating counts)
    least: int | None = None
    ties: list[tuple[int, int]] = []
    for cell in open_cells if contradictions else ():
        for d in bits(grid.cands[cell]):
            got = outcome(cell, d, 0 if least is None else least + 1)
            if got.grid is None and got is not STOPPED:
                if least is None or got.steps < least:
                    least, ties = got.steps, []
                if got.steps == least:
                    ties.append((cell, d))
    if least is not None:
        found = [
            contradiction_step(
                grid, rules, f"{name} (contradiction)", cell, d + 1, least, kind=name + " Contradiction"
            )
            for cell, d in ties
        ]
        shortest = min(step.length for step in found)
        return [step for step in found if step.length == shortest]
    # 2. every candidate of a cell, or every place of a digit in a house, agrees on something
    choices: list[tuple[str, list[tuple[int, int]], list[str]]] = []
    for cell in open_cells:
        cands = [(cell, d) for d in bits(grid.cands[cell])]
        choices.append((f"whichever digit {grid.name(cell)} holds", cands, []))
    for h, hbits in enumerate(grid.t.house_bits):
        house = grid.geometry.houses[h].name
        for d in range(n):
            spots = grid.where[d] & hbits
            if spots.bit_count() >= 2:
                where = [(c, d) for c in bits(spots)]
                choices.append((f"wherever {digit_char(d + 1)} goes in {house}", where, [house]))
    cheapest: list[tuple[str, list[tuple[int, int]], list[str], list[Outcome], Agreement]] = []
    least_cost = 0
    for label, options, houses in choices:
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
            cheapest.append((label, options, houses, results, agreed))
    # the net is traced (slowly, every line kept) for the cheapest verities only
    return [
        _verity_step(grid, rules, name, least_cost, label, options, houses, results, *one)
        for label, options, houses, results, agreed in cheapest
        for one in agreed
    ]


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
        f"{label}, the consequences agree: {net.text(grid.size)}",
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
    """The step "``digit`` goes from ``cell``": its branch from the assumption to the contradiction
    (``how`` says how the assumption was followed, where that differs from the branch's rules)."""
    branch = contradiction_branch(grid, rules, cell, digit)
    where = f"if {grid.name(cell)} were {digit_char(digit)}{how}"
    if branch is None:  # the slow trace stalled where the fast one broke the grid: say what is known
        branch = Branch(())
        reason = f"{where}, {steps} deductions later the grid breaks"
    else:
        reason = f"{where}: {branch.text(grid.size)}"
    return make_step(
        grid,
        technique,
        reason,
        structure=Net((branch,)),
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
    return Net(tuple(branches))


#: What the outcomes of a choice agree on: one (placements, eliminations) pair per step.
Agreement = list[tuple[list[Candidate], list[Candidate]]]


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
    inner = 0

    def inner_net(trial: CandidateGrid) -> list[tuple[int, int]]:
        # ``settle`` calls its rules only once no single is left, so ``trial`` is quiet here.
        nonlocal inner
        found = _first_contradiction(trial, NET_RULES, quiet=True)
        if found is None:
            return []
        inner += 1
        return [found]

    rules = (*NET_RULES, inner_net)
    # cheap assumptions first (bivalue cells); the first contradiction is the step
    for cell in sorted(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c)):
        for d in bits(grid.cands[cell]):
            inner = 0
            checkpoint()
            got = settle(grid.copy(), rules, start=(cell, d + 1), quiet=quiet)
            if got.grid is None and inner:
                where = f"if {grid.name(cell)} were {digit_char(d + 1)}"
                count = f"{inner} of the {got.steps} deductions by a forcing net inside"
                branch = contradiction_branch(grid, (*NET_RULES, forcing_net_inside), cell, d + 1)
                shown = f": {branch.text(grid.size)}" if branch else ", the grid breaks"
                return make_step(
                    grid,
                    "Nested Forcing Net",
                    f"{where} ({count}){shown}",
                    structure=Net((branch or Branch(()),)),
                    eliminations=[(cell, d + 1)],
                    cells=[cell],
                    digits=[d + 1],
                    length=got.steps + 1,
                    kind="Nested Forcing Net Contradiction",
                )
    return None


def forcing_net_inside(trial: CandidateGrid) -> list[tuple[int, int]]:
    """The rule a nested net adds: a forcing-net contradiction found inside the assumption."""
    found = _first_contradiction(trial, NET_RULES, quiet=True)
    return [found] if found else []


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
    """Settle the open cell with the fewest candidates by search: the last resort of all."""
    if not grid.empty:
        return None
    cell = min(bits(grid.empty), key=lambda c: (grid.cands[c].bit_count(), c))
    for d in bits(grid.cands[cell]):
        trial = grid.copy()
        trial.place(cell, d + 1)
        if search(trial) is not None:
            return make_step(
                grid,
                "Brute Force",
                f"trying the candidates of {grid.name(cell)} by search, "
                f"{digit_char(d + 1)} leads to a solution",
                placements=[(cell, d + 1)],
                cells=[cell],
                digits=[d + 1],
            )
    return None


def search(grid: CandidateGrid) -> list[int] | None:
    """A solution of ``grid`` that respects its candidates (singles, then guesses), or None."""
    checkpoint()
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
