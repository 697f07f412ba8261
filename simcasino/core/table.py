"""What lies on the table: loose cards (card ids) and builds (§6 Builds), and how to show them.

A table is a list of *items*; positions in it are what capture masks and build targets
address, in both engines. Without builds every item is a card id, as it always was.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcasino.core.cards import card_code, parse_card, parse_cards


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
    return (
        f"[{'+'.join(card_code(c) for c in item.cards)}={value_name(item.value)}{kind} by seat "
        f"{item.owner}]"
    )


def parse_item(text: str, owner: int = 1) -> int | Build:
    """A table item from its code: a card (``7C``), or a build: its cards joined by ``+``, then
    ``=`` and its value (``5H+7C=Q``; ``==`` for a double build) and optionally ``@`` its
    owner's seat (default ``owner``: 1, an opponent of seat 0). Card kinds; ValueError if bad."""
    if "=" not in text:
        return parse_card(text)
    cards, _, rest = text.partition("=")
    double = rest.startswith("=")
    value_text, _, seat_text = rest.lstrip("=").partition("@")
    names = {"J": 11, "Q": 12, "K": 13}
    value = names.get(value_text.upper()) or (int(value_text) if value_text.isdigit() else 0)
    kinds = parse_cards(cards.split("+"))
    if not 2 <= value <= 16 or len(kinds) < 2 or (seat_text and not seat_text.isdigit()):
        raise ValueError(
            f"bad build {text!r}: expected cards joined by + then =VALUE (2-16, J, Q, K), "
            "== for a double build, and optionally @SEAT, e.g. 5H+7C=Q@1"
        )
    return Build(tuple(kinds), value, int(seat_text) if seat_text else owner, double)
