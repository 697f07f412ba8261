"""What lies on the table: loose cards (card ids) and builds (§6 Builds), and how to show them.

A table is a list of *items*; positions in it are what capture masks and build targets
address, in both engines. Without builds every item is a card id, as it always was.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.cards import card_code


@dataclass(frozen=True)
class Build:
    """A build on the table: its cards (in the order placed), declared value, owner (the
    seat that last built on it) and whether it is a double build (no longer raised)."""

    cards: tuple[int, ...]
    value: int
    owner: int
    double: bool = False


def is_build(item: object) -> bool:
    return isinstance(item, Build)


def item_cards(item: int | Build) -> list[int]:
    """The cards of a table item: a loose card, or every card of a build."""
    return list(item.cards) if is_build(item) else [item]


def value_name(value: int) -> str:
    return {11: "J", 12: "Q", 13: "K"}.get(value, str(value))


def item_code(item: int | Build) -> str:
    """A table item as text: ``7C``, or ``[5H+7C=Q by seat 0]`` (``double`` for a double build)."""
    if not is_build(item):
        return card_code(item)
    kind = " double" if item.double else ""
    return f"[{'+'.join(card_code(c) for c in item.cards)}={value_name(item.value)}{kind} by seat {item.owner}]"
