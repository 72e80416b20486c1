"""Deadlines and work budgets for the logic engine, checked between steps and inside long searches.

A call that may run long (rate, explain, hint, find_steps) opens a :func:`limits` block; the
searches inside it call :func:`checkpoint` in their loops. Past the deadline, or once the work
budget is spent, ``checkpoint`` raises :class:`LogicTimeout`, which the public call turns into a
result with status ``timeout``. The limits live in a context variable, so each thread (each web
request) has its own, and code outside any block runs unbounded.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


class LogicTimeout(Exception):
    """The deadline passed or the work budget ran out inside a logic search."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class _Limits:
    deadline: float | None
    node_limit: int | None
    nodes: int = 0


_current: ContextVar[_Limits | None] = ContextVar("shudu_logic_limits", default=None)


@contextmanager
def limits(timeout: float | None = None, node_limit: int | None = None) -> Iterator[None]:
    """Bound the logic work done inside the block: ``timeout`` seconds, ``node_limit`` checkpoints.

    None means no limit. The caller validates the numbers (see :mod:`shudu.errors`); a nested
    block can only tighten the limits of the one around it.
    """
    outer = _current.get()
    deadline = None if timeout is None else time.monotonic() + timeout
    if outer is not None and outer.deadline is not None:
        deadline = outer.deadline if deadline is None else min(deadline, outer.deadline)
    if outer is not None and outer.node_limit is not None:
        left = max(0, outer.node_limit - outer.nodes)
        node_limit = left if node_limit is None else min(node_limit, left)
    token = _current.set(_Limits(deadline, node_limit))
    try:
        yield
    finally:
        inner = _current.get()
        _current.reset(token)
        if outer is not None and inner is not None:
            outer.nodes += inner.nodes


def checkpoint(cost: int = 1) -> None:
    """Count ``cost`` units of work; raise :class:`LogicTimeout` past the deadline or the budget.

    A checkpoint that would pass the budget counts one unit past it, whatever its cost: the work
    it stands for is not done."""
    now = _current.get()
    if now is None:
        return
    now.nodes += cost
    if now.node_limit is not None and now.nodes > now.node_limit:
        now.nodes = now.node_limit + 1
        raise LogicTimeout(f"node limit of {now.node_limit} reached")
    if now.deadline is not None and time.monotonic() >= now.deadline:
        raise LogicTimeout("time limit reached")


def expired() -> bool:
    """Whether the current deadline has passed (without counting work)."""
    now = _current.get()
    return now is not None and now.deadline is not None and time.monotonic() >= now.deadline


def remaining_seconds() -> float | None:
    """The time left before the current deadline (None: no deadline; never below 0)."""
    now = _current.get()
    if now is None or now.deadline is None:
        return None
    return max(0.0, now.deadline - time.monotonic())


def nodes_left() -> int | None:
    """The work units left in the current budget (None: no budget)."""
    now = _current.get()
    if now is None or now.node_limit is None:
        return None
    return max(0, now.node_limit - now.nodes)


def c_limits() -> tuple[float, int]:
    """The current limits as the C core's searches take them: the seconds and the work units
    left (-1 for none)."""
    seconds, nodes = remaining_seconds(), nodes_left()
    return (-1.0 if seconds is None else seconds, -1 if nodes is None else nodes)


def c_spent(units: int, *, stopped: bool) -> None:
    """Count the work ``units`` of a C core search; one that ``stopped`` past the limits it was
    given (:func:`c_limits`) counts one more and raises :class:`LogicTimeout`."""
    if stopped:
        checkpoint(units + 1)
        raise LogicTimeout("time limit reached")
    checkpoint(units)


def nodes_used() -> int:
    """The work counted so far in the current block (0 outside any block)."""
    now = _current.get()
    return 0 if now is None else now.nodes


def finite_seconds(value: float) -> bool:
    """Whether ``value`` is a usable number of seconds: finite and not negative."""
    return math.isfinite(value) and value >= 0
