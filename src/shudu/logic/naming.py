"""Techniques found by name: every name in the catalog looked up exactly (:func:`resolve`: a step's
rating follows from its technique and form, never from the wording of its explanation), or
forgivingly for users (:func:`lookup`: shudu's names, HoDoKu's names and codes, in any letter
case)."""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import CATALOG, Technique


@dataclass(frozen=True)
class Resolved:
    """What a name stands for: a technique, and the form's name (the technique's own if none)."""

    technique: Technique
    name: str


def _index() -> tuple[dict[str, Resolved], dict[str, Resolved]]:
    exact: dict[str, Resolved] = {}
    loose: dict[str, Resolved] = {}

    def add(key: str, found: Resolved, *, strict: bool) -> None:
        if not key:
            return
        if strict:
            if key in exact:
                raise AssertionError(f"the technique name {key!r} is declared twice")
            exact[key] = found
        loose.setdefault(key.casefold(), found)

    for t in CATALOG:
        own = Resolved(t, t.name)
        for key in (t.name, *t.aliases):
            add(key, own, strict=True)
        for form in t.forms:
            found = Resolved(t, form.name)
            for key in (form.name, *form.aliases):
                add(key, found, strict=True)
    # HoDoKu's names and codes, after every shudu name (a shudu name wins a clash); a code shared
    # by a technique and its forms means the first form that has it.
    for t in CATALOG:
        own = Resolved(t, t.name)
        add(t.hodoku, own, strict=False)
        for form in t.forms:
            found = Resolved(t, form.name)
            for key in (form.hodoku, *form.codes):
                add(key, found, strict=False)
        for key in t.codes:
            add(key, own, strict=False)
    return exact, loose


_EXACT, _LOOSE = _index()


def resolve(name: str) -> Resolved:
    """The technique and form a finder's ``name`` declares (exact names only; KeyError if none)."""
    try:
        return _EXACT[name]
    except KeyError:
        raise KeyError(f"{name!r} is not a declared technique or form name") from None


def lookup(text: str) -> Resolved | None:
    """The technique or form a user means: shudu's name, HoDoKu's name or four-digit code (a
    library variant such as ``0600-1`` is its code), in any letter case; None if unknown."""
    key = text.strip()
    found = _LOOSE.get(key.casefold())
    if found is None and key[:4].isdigit() and key[4:5] == "-":
        found = _LOOSE.get(key[:4])
    return found


def technique(text: str) -> Technique:
    """The technique named ``text`` (as :func:`lookup`); KeyError if none."""
    found = lookup(text)
    if found is None:
        raise KeyError(f"no technique is called {text!r}")
    return found.technique


__all__ = ["Resolved", "lookup", "resolve", "technique"]
