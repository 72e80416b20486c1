"""Bipartite matching on one house: the graph work behind the ``matching`` solver (paper 5).

A house of n cells is a bipartite graph: cells on one side, digits on the other, an edge (i, d)
where digit d is still a candidate of the house's i-th cell. The graph is given as ``adj``, one
bitmask per cell (bit d set for digit d, digits 1..n — the same masks the solver keeps).

An edge that lies in no perfect matching is *forbidden*: no solution can use it. Two ways to find
the forbidden edges, which must agree (a test checks that they do):

- :func:`forbidden_brute` — the paper's test, one edge at a time: take the edge and both its ends
  out of the graph and look for a perfect matching of what is left (by augmenting paths).
- :func:`forbidden_regin` — Régin's all-different filtering: one perfect matching, then an edge
  outside it is allowed exactly when it lies on an alternating cycle, which a strongly connected
  component search finds for all edges at once.

:func:`implied_by` finds *edge dependencies*: the edges that every perfect matching holding a
given edge also holds.
"""

from __future__ import annotations

from collections.abc import Sequence

#: A matching: for each cell of the house, its digit (0 while unmatched).
Matching = list[int]


def _bits(mask: int) -> list[int]:
    """The digits of a bitmask, ascending."""
    digits = []
    while mask:
        low = mask & -mask
        digits.append(low.bit_length() - 1)
        mask ^= low
    return digits


def _augment(cell: int, adj: Sequence[int], match: Matching, owner: dict[int, int], seen: list[int]) -> bool:
    """Look for an augmenting path from the unmatched ``cell`` (Kuhn's method, depth first).

    A path alternates unmatched and matched edges and ends at a free digit; flipping it matches
    one more cell. ``seen`` (a one-item list holding a digit mask) stops digits being visited twice.
    """
    for digit in _bits(adj[cell] & ~seen[0]):
        seen[0] |= 1 << digit
        holder = owner.get(digit)
        if holder is None or _augment(holder, adj, match, owner, seen):
            match[cell] = digit
            owner[digit] = cell
            return True
    return False


def maximum_matching(adj: Sequence[int], match: Matching | None = None) -> Matching:
    """A maximum matching of the graph, grown from ``match`` (a partial matching) when given.

    Cells that stay unmatched hold 0. The house has a perfect matching exactly when none does.
    """
    match = list(match) if match is not None else [0] * len(adj)
    owner = {digit: cell for cell, digit in enumerate(match) if digit}
    for cell in range(len(adj)):
        if not match[cell]:
            _augment(cell, adj, match, owner, [0])
    return match


def strong_components(successors: Sequence[int]) -> list[int]:
    """Tarjan's strongly connected components of a directed graph on nodes 0..m-1.

    ``successors[v]`` is a bitmask of the nodes v points to. Returns a component number per node.
    Iterative, so deep graphs cannot overflow the call stack.
    """
    count = len(successors)
    index = [-1] * count  # order of discovery
    low = [0] * count  # the lowest index reachable through the node's subtree
    component = [-1] * count
    on_stack: list[int] = []
    next_index = 0
    components = 0
    for root in range(count):
        if index[root] >= 0:
            continue
        # each frame: a node and the successors it has still to look at
        frames = [(root, successors[root])]
        index[root] = low[root] = next_index
        next_index += 1
        on_stack.append(root)
        while frames:
            node, left = frames[-1]
            if left:
                low_bit = left & -left
                frames[-1] = (node, left ^ low_bit)
                succ = low_bit.bit_length() - 1
                if index[succ] < 0:
                    index[succ] = low[succ] = next_index
                    next_index += 1
                    on_stack.append(succ)
                    frames.append((succ, successors[succ]))
                elif component[succ] < 0:  # on the stack: part of the current search
                    low[node] = min(low[node], index[succ])
                continue
            frames.pop()
            if frames:
                parent = frames[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:  # node is the root of a component: pop it off
                while True:
                    member = on_stack.pop()
                    component[member] = components
                    if member == node:
                        break
                components += 1
    return component


def _cycle_graph(adj: Sequence[int], match: Matching) -> list[int]:
    """The alternating-cycle graph of a perfect matching, with each matched pair as one node.

    Node i stands for cell i together with its matched digit. Cell i points to cell j when i could
    take j's digit instead: an unmatched edge (i, match[j]). Following i → j → … → i and shifting
    every cell to the next one's digit is an alternating cycle, which turns the matching into
    another perfect matching — so an unmatched edge (i, match[j]) is in some perfect matching
    exactly when i and j lie on a common cycle: in the same strongly connected component.
    """
    owner = {digit: cell for cell, digit in enumerate(match)}
    successors = []
    for cell, mask in enumerate(adj):
        targets = 0
        for digit in _bits(mask & ~(1 << match[cell])):
            targets |= 1 << owner[digit]
        successors.append(targets)
    return successors


def forbidden_regin(adj: Sequence[int]) -> list[int] | None:
    """The forbidden edges by Régin's rule: a digit mask per cell, or None without a perfect matching."""
    match = maximum_matching(adj)
    if not all(match):
        return None
    component = strong_components(_cycle_graph(adj, match))
    # the digits each component's cells hold in the matching: the only ones they may swap among
    digits_of = [0] * len(adj)
    for cell, digit in enumerate(match):
        digits_of[component[cell]] |= 1 << digit
    return [mask & ~digits_of[component[cell]] for cell, mask in enumerate(adj)]


def _match_without(adj: Sequence[int], match: Matching, cell: int, digit: int) -> Matching | None:
    """A perfect matching of the graph less ``cell`` and ``digit``, grown from the perfect ``match``.

    Taking the two vertices out leaves ``match`` short by at most one edge: the cell that held
    ``digit`` loses it. One augmenting path search (in the smaller graph) restores it, or proves
    no perfect matching is left. ``cell`` keeps the entry 0 in the result.
    """
    rest = [0 if other == cell else mask & ~(1 << digit) for other, mask in enumerate(adj)]
    partial = [0 if other == cell or held == digit else held for other, held in enumerate(match)]
    owner = {held: other for other, held in enumerate(partial) if held}
    for other, held in enumerate(partial):
        if other != cell and not held and not _augment(other, rest, partial, owner, [0]):
            return None
    return partial


def forbidden_brute(adj: Sequence[int]) -> list[int] | None:
    """The forbidden edges by the paper's brute-force test, one edge at a time.

    Edge (i, d) is allowed when the graph without cell i and digit d still has a perfect matching.
    A digit mask per cell, or None when the house has no perfect matching at all.
    """
    match = maximum_matching(adj)
    if not all(match):
        return None
    forbidden = []
    for cell, mask in enumerate(adj):
        lost = 0
        for digit in _bits(mask):
            if _match_without(adj, match, cell, digit) is None:
                lost |= 1 << digit
        forbidden.append(lost)
    return forbidden


def implied_by(
    adj: Sequence[int], cell: int, digit: int, match: Matching | None = None
) -> list[tuple[int, int]] | None:
    """Edge dependency: the edges (cell, digit) that every perfect matching holding the given edge holds.

    They are the edges that every perfect matching of the graph less ``cell`` and ``digit`` holds:
    the matched edges on no alternating cycle, i.e. the nodes alone in their strongly connected
    component. None when the edge is in no perfect matching (it is forbidden). ``match``, a perfect
    matching of the graph, saves finding one again when many edges of one house are asked about.
    """
    if match is None:
        match = maximum_matching(adj)
    if not all(match):
        return None
    rest_match = _match_without(adj, match, cell, digit)
    if rest_match is None:
        return None
    rest = [0 if other == cell else mask & ~(1 << digit) for other, mask in enumerate(adj)]
    # the smaller graph: every cell but ``cell``; rebuild its cycle graph on those cells only
    others = [other for other in range(len(adj)) if other != cell]
    sub_adj = [rest[other] for other in others]
    sub_match = [rest_match[other] for other in others]
    component = strong_components(_cycle_graph(sub_adj, sub_match))
    sizes: dict[int, int] = {}
    for comp in component:
        sizes[comp] = sizes.get(comp, 0) + 1
    return [(others[k], sub_match[k]) for k, comp in enumerate(component) if sizes[comp] == 1]
