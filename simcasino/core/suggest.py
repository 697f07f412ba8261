"""Did-you-mean for a name typed wrong: the three nearest names, never the whole list.

Why: a misspelt knob once answered with all forty knob names, which hides the one meant; the
nearest three (by `difflib`'s ratio) name it, and the message says where the full list is.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

NEAREST = 3  # names suggested at the most
CUTOFF = 0.5  # difflib ratio below which a name is too far to suggest


def nearest(word: str, names: Iterable[str], n: int = NEAREST) -> list[str]:
    """The ``n`` names closest to ``word`` (case aside), closest first; [] when none is near."""
    names = list(names)
    lowered = {name.lower(): name for name in names}
    return [
        lowered[m]
        for m in difflib.get_close_matches(str(word).lower(), list(lowered), n=n, cutoff=CUTOFF)
    ]


def unknown(what: str, word: object, names: Iterable[str], listed: str) -> str:
    """ "unknown rule knob 'targte': did you mean target? (all: simcasino rules show)": the
    nearest names, or where ``listed`` says the full list is when none is near."""
    return f"unknown {what} {word!r}: {did_you_mean(word, names)}(all: {listed})"


def did_you_mean(word: object, names: Iterable[str]) -> str:
    """ "did you mean target? " for the nearest names, "" when none is near: the start of a
    message that goes on with the choices."""
    near = nearest(str(word), names)
    return f"did you mean {_either(near)}? " if near else ""


def near_or_all(word: object, names: Iterable[str], listed: str) -> str:
    """ "did you mean seed? (all: docs/experiments.md)" when a name is near, else every name
    ("expected one of ..."): a short list is shown whole only when there is nothing to suggest."""
    names = list(names)
    hint = did_you_mean(word, names)
    return f"{hint}(all: {listed})" if hint else f"expected one of {', '.join(names)}"


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
