"""The rule forcing chains and nets, and the verities: each step holds in every solution on
random candidate states of random rule puzzles, and the shortcuts that make them fast (the
relations' support tables, remembered propagations, trials followed in two goes) answer as the
plain computations do."""

from __future__ import annotations

import random

import pytest

import shudu
from shudu.logic.engine.grid import CandidateGrid, bits
from shudu.logic.solver import steps
from shudu.logic.table import EVERY_FINDER
from shudu.logic.techniques import rule_forcing, rule_steps
from shudu.puzzle import Puzzle
from shudu.rules import Rule
from shudu.variants import Variant
from test_rule_soundness import random_state, sources, wrong_steps

#: The finders of the rule forcing chains, nets and verities.
FORCING = [f for f in EVERY_FINDER if f.technique.name in {"Rule Forcing Chain", "Rule Forcing Net"}]


def test_the_rule_forcing_finders_are_on_the_path() -> None:
    forms = {f.form or f.technique.name for f in FORCING}
    assert forms == {
        "Rule Forcing Chain",
        rule_forcing.SHORT_FORM,
        rule_forcing.NET_NAME,
        rule_forcing.CELL_FORM,
        rule_forcing.NET_CELL_FORM,
    }


def test_rule_forcing_steps_are_sound_on_random_states() -> None:
    rng = random.Random(7)
    checked, failures = 0, []
    for source in sources(seed=77, count=8):
        for _ in range(6):
            grid = random_state(source, rng)
            for finder in FORCING:
                count, bad = wrong_steps(finder, source, grid)
                checked += count
                failures += bad
    assert not failures, "\n".join(failures[:5])
    assert checked >= 100


def test_support_tables_agree_with_the_pair_rule() -> None:
    rng = random.Random(3)
    for _ in range(200):
        size = rng.choice((4, 6, 9))
        full = (1 << size) - 1
        allowed = tuple(rng.randrange(full + 1) for _ in range(size))
        tables = rule_steps.supports(allowed)
        assert tables is not None
        fwd, back = tables
        for _ in range(20):
            dom_a, dom_b = rng.randrange(1, full + 1), rng.randrange(1, full + 1)
            keep_a = sum(1 << d for d in bits(dom_a) if allowed[d] & dom_b)
            keep_b = sum(1 << e for e in bits(dom_b) if any(allowed[d] >> e & 1 for d in bits(dom_a)))
            assert dom_a & back[dom_b] == keep_a
            assert dom_b & fwd[dom_a] == keep_b
    assert rule_steps.supports((1,) * 16) is None  # past the tables' size: none built


def _states(seed: int, count: int) -> list[CandidateGrid]:
    rng = random.Random(seed)
    return [random_state(source, rng) for source in sources(seed, count) for _ in range(3)]


def test_a_trial_followed_in_two_goes_ends_as_one_followed_at_once() -> None:
    rng = random.Random(5)
    tried = 0
    for grid in _states(55, 6):
        open_cells = list(bits(grid.empty))
        for cell in rng.sample(open_cells, min(4, len(open_cells))):
            for d in bits(grid.cands[cell]):
                for net in (False, True):
                    once = rule_forcing.Trial(grid.copy(), net=net)
                    once.grid.place(cell, d + 1)
                    once.advance(rule_forcing.MAX_ROUNDS)
                    twice = rule_forcing.Trial(grid.copy(), net=net)
                    twice.grid.place(cell, d + 1)
                    twice.advance(rule_forcing.SHORT)
                    twice.advance(rule_forcing.MAX_ROUNDS)
                    assert (twice.rounds, twice.broke) == (once.rounds, once.broke)
                    assert twice.grid.cands == once.grid.cands and twice.grid.values == once.grid.values
                    tried += 1
    assert tried >= 50


def test_a_remembered_propagation_is_a_fresh_one() -> None:
    # the states of one puzzle share its rules' memory: an answer remembered from another state
    # must never stand in for this one's
    for grid in _states(66, 6):
        rules = grid.t.rules
        assert rules is not None
        for index in range(len(rules.items)):
            remembered = rule_steps.propagated(grid, index)
            saved = dict(rules.memo)
            rules.memo.clear()
            fresh = rule_steps.propagated(grid, index)
            rules.memo.clear()
            rules.memo.update(saved)
            assert remembered == fresh


#: Puzzles whose solving path takes a step of a rule forcing net or verity finder, by the
#: finder's name (found among random 4x4 and 6x6 rule puzzles, some with several solutions):
#: (rules, givens).
PATH_CASES: dict[str, tuple[tuple[Rule, ...], str]] = {
    rule_forcing.NET_NAME: (
        (Rule("arrow", (9, 4), (1,)), Rule("white-dot", (13, 12)), Rule("white-dot", (6, 7))),
        "0000000000000300",
    ),
    rule_forcing.CELL_FORM: (
        (
            Rule("cage", (20,), (1,)),
            Rule("white-dot", (12, 18)),
            Rule("cage", (10,)),
            Rule("quad", (22, 23, 28, 29), (3, 4)),
            Rule("black-dot", (22, 16)),
            Rule("black-dot", (25, 19)),
        ),
        "000000000000054000060000000100146000",
    ),
    rule_forcing.NET_CELL_FORM: (
        (
            Rule("black-dot", (14, 20)),
            Rule("quad", (24, 25, 30, 31), (1, 2)),
            Rule("whisper", (0, 6, 7, 13, 8), (1,)),
            Rule("cage", (21, 20, 19, 18), (14,)),
            Rule("modular", (4, 11, 10), (3,)),
        ),
        "000000030000000000300006503000060050",
    ),
}


#: The forms of the steps of each finder.
VERITY_FORMS = {
    rule_forcing.NET_NAME: (rule_forcing.NET_NAME,),
    rule_forcing.CELL_FORM: (rule_forcing.CELL_FORM, rule_forcing.HOUSE_FORM),
    rule_forcing.NET_CELL_FORM: (rule_forcing.NET_CELL_FORM, rule_forcing.NET_HOUSE_FORM),
}


@pytest.mark.parametrize("form", sorted(PATH_CASES))
def test_a_path_takes_the_rule_nets_and_verities_soundly(form: str) -> None:
    rules, givens = PATH_CASES[form]
    size = {16: 4, 36: 6}[len(givens)]
    puzzle = Puzzle([int(ch) for ch in givens], variant=Variant().with_rules(rules, size))
    solutions = [tuple(g.cells) for g in shudu.solutions(puzzle)]
    assert solutions
    grid = CandidateGrid.from_values(puzzle.geometry, puzzle.cells)
    taken = []
    for step in steps(grid):
        assert all(sol[c] == d for c, d in step.placements for sol in solutions), step.explanation
        assert all(sol[c] != d for c, d in step.eliminations for sol in solutions), step.explanation
        if step.name in VERITY_FORMS[form]:
            taken.append(step)
    assert taken  # (a puzzle with several solutions stops where no digit is forced)
    assert all(step.explanation.startswith(step.name + ": ") for step in taken)
