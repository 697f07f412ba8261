"""A strategy's parameters in words, for the sentences that say what was compared
(`report.text`: "the heuristic without holding twos (S4)", "holding tens (S5) is worth ...").

A strategy whose parameters are tactics says them in its module's ``VOCABULARY`` (the
heuristic's are its weights', `strategies.heuristic.weights`); the pages ask here by the
strategy's name, so they read no strategy's internals. A strategy without one is said by its
label.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simcasino.strategies import module


@dataclass(frozen=True)
class Vocabulary:
    """What a strategy's parameters stand for: each one's default (in the strategy's order), its
    words, several that are one piece of advice named together (the largest group first), and
    the strategy with given parameters in a sentence's words."""

    defaults: dict[str, float]
    words: dict[str, str]
    groups: dict[str, tuple[str, ...]]
    describe: Callable[[dict[str, float]], str]


def vocabulary(name: str) -> Vocabulary | None:
    """The words of built-in strategy ``name``, None if it has none (ValueError if unknown)."""
    return getattr(module(name), "VOCABULARY", None)
