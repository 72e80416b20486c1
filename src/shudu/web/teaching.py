"""The teaching view's numbering of a step's chain or net, added to the step's JSON.

The page draws a number beside each node of a chain and each line of a net's branch, and the
text beside the board names the same numbers. Both come from here, so the drawing and the words
cannot disagree: a chain's nodes are numbered in chain order (``number``, and each link's ends
name the numbers they join), a net's lines are numbered within their branch, in the order the
branch deduces them. ``numbered`` is the text that reads those numbers: one line for a chain
(``(1) 5 in r4c8 = (2) 5 in r4c1 - (3) 5 in r3c1``, ``=`` a strong link, ``-`` a weak one), a
list of lines for a branch (``(2) r4c4≠9 — sees r5c4=9 ← (1)``), with the branch's ``ending``
(its contradiction and what it proves)."""

from __future__ import annotations

from typing import Any

#: How a chain's text writes a link: ``=`` strong, ``-`` weak (Eureka's signs).
LINK_SIGNS = {"strong": " = ", "weak": " - "}


def node_text(node: dict[str, Any]) -> str:
    """``5 in r4c8``; ``5 in {r4c1,r4c2}`` for a group; ``5 or 7 in r1c2`` for several digits."""
    digits = " or ".join(str(d) for d in node.get("digits") or [])
    cells = [str(c) for c in node.get("cells") or []]
    where = cells[0] if len(cells) == 1 else "{" + ",".join(cells) + "}"
    return f"{digits} in {where}"


def number_chain(structure: dict[str, Any]) -> None:
    """Number a chain's or loop's nodes in chain order and write the numbered text."""
    nodes = [n for n in structure.get("nodes") or [] if isinstance(n, dict)]
    if not nodes:
        return
    for k, node in enumerate(nodes, start=1):
        node["number"] = k
    links = [link for link in structure.get("links") or [] if isinstance(link, dict)]
    # link i joins node i and node i + 1; a loop's last link goes back to the first node
    for i, link in enumerate(links):
        ends = (link.get("from"), link.get("to"))
        for end, k in zip(ends, (i, (i + 1) % len(nodes)), strict=True):
            if isinstance(end, dict):
                end["number"] = k + 1
    text = f"(1) {node_text(nodes[0])}"
    for i, link in enumerate(links):
        k = (i + 1) % len(nodes)
        text += f"{LINK_SIGNS.get(str(link.get('kind')), ' - ')}({k + 1}) {node_text(nodes[k])}"
    structure["numbered"] = text


def _line_text(line: dict[str, Any]) -> str:
    sign = "=" if line.get("on") else "≠"
    return f"{line.get('cell')}{sign}{line.get('digit')}"


def number_net(structure: dict[str, Any], readable: list[Any] | None) -> None:
    """Number each branch's lines in order and write the branch's numbered lines and ending.
    ``readable`` is the step's ``branches`` (each deduction's reason, in words)."""
    for b, branch in enumerate(structure.get("branches") or []):
        if not isinstance(branch, dict):
            continue
        lines = [line for line in branch.get("lines") or [] if isinstance(line, dict)]
        said = readable[b] if readable and b < len(readable) and isinstance(readable[b], dict) else {}
        deductions = said.get("deductions") or []
        numbered = []
        for k, line in enumerate(lines):
            line["number"] = k + 1
            if k == 0:
                numbered.append(f"(1) if {_line_text(line)}")
                continue
            why = deductions[k - 1] if k - 1 < len(deductions) else {}
            reason = why.get("reason") if isinstance(why, dict) else None
            cites = " ".join(f"({j + 1})" for j in line.get("because") or [] if isinstance(j, int))
            text = f"({k + 1}) {_line_text(line)}"
            if reason:
                text += f" — {reason}"
            if cites:
                text += f" ← {cites}"
            numbered.append(text)
        branch["numbered"] = numbered
        ending = [
            f"{word}{said[key]}"
            for key, word in (("contradiction", "contradiction: "), ("conclusion", "so "))
            if said.get(key)
        ]
        branch["ending"] = "; ".join(ending)


def number_structure(data: dict[str, Any]) -> None:
    """Add the teaching view's numbers to a step's JSON (``data``), where it has a structure."""
    structure = data.get("structure")
    if not isinstance(structure, dict):
        return
    if structure.get("type") == "net":
        readable = data.get("branches")
        number_net(structure, readable if isinstance(readable, list) else None)
    else:
        number_chain(structure)
