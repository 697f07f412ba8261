"""Builds in the reference engine (docs/rules.md §6 Builds: Rakennuskasino, Glimne's Mulle).

The table holds *items*: a loose card (its card id) or a `Build`. A capture mask and a build
move's target are bitmasks over item positions, as for loose cards, so the capture and
trail moves of every variant without builds are unchanged.

Readings of what the rule book leaves open (each cited in README.md's variants section):

- A build move places one card from hand onto exactly one table item (R-BUILD "onto a table
  card (or build)"): onto a loose card it makes a single build of their summed table values;
  onto a single build it raises it by the card's table value, or, if the card's table value
  equals the build's, makes it a double build; onto a double build it adds a card of its
  value (it stays double). A card onto a loose card of equal value is a single build of the
  sum, never a double: the rule book's doubles are "two builds (or a build and a card)".
- The played card counts its table value in a build (an ace 1, 2♠ 2, 10♦ 10; a Swedish
  ace 1 or 14), and the declared value must be one that another card in the builder's hand
  can be played as (with ``build_penalty``: any value some card can be played as, at that
  cost when not held). Whoever builds, raises or doubles a build owns it afterwards.
- Obligation: a player owning a build on the table may only capture (anything) or build onto
  an own build; if that leaves no move (the card of the value was spent on another capture),
  the player trails. The obligation holds on every turn while the build is theirs.
- Builds left on the table at the end of the deal go with the leftover cards to the last
  capturer (R-SISTAN).
- The `builds` column counts every build move a seat makes: new builds, raises, doubles.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcasino.core.rules import Rules
from simcasino.core.table import Build, is_build


def held_values(hand: Sequence[int], index: int, rules: Rules) -> set[int]:
    """The values the cards in hand other than ``hand[index]`` can be played as."""
    return {v for i, c in enumerate(hand) if i != index for v in rules.hand_values(c)}


def playable_values(rules: Rules) -> set[int]:
    """Every value some card can be played as: what a build may declare under ``build_penalty``."""
    return {v for kind in range(52) for v in rules.hand_values(kind)}


def build_values(card: int, item: int | Build, rules: Rules) -> list[int]:
    """The values of the builds ``card`` can make on ``item``, ascending, before the holding
    rule: sums onto a loose card; onto a build its value (a double) or, unless it is double,
    its value raised by the card."""
    played = rules.table_values(card)
    if not is_build(item):
        return sorted({p + t for p in played for t in rules.table_values(item)})
    doubles = {item.value} if item.value in played else set()
    raises = set() if item.double else {item.value + p for p in played}
    return sorted(doubles | raises)


def build_options(
    hand: Sequence[int], index: int, table: Sequence[int | Build], rules: Rules
) -> list[tuple[int, int]]:
    """(target position, declared value) of every build ``hand[index]`` may make, ascending.
    A loose card identical to an earlier loose one adds no options (R-DECK: interchangeable)."""
    card = hand[index]
    allowed = playable_values(rules) if rules.build_penalty else held_values(hand, index, rules)
    options = []
    for target, item in enumerate(table):
        if not is_build(item) and any(
            not is_build(o) and o % 52 == item % 52 for o in table[:target]
        ):
            continue
        options += [
            (target, value) for value in build_values(card, item, rules) if value in allowed
        ]
    return options


def build_onto(item: int | Build, card: int, value: int, seat: int) -> Build:
    """The build ``card`` makes on ``item`` with the declared ``value``, owned by ``seat``."""
    if not is_build(item):
        return Build((item, card), value, seat)
    return Build(item.cards + (card,), value, seat, item.double or value == item.value)


def owns_build(table: Sequence[int | Build], seat: int) -> bool:
    return any(is_build(item) and item.owner == seat for item in table)


def oblige(moves: tuple, table: Sequence[int | Build], seat: int) -> tuple:
    """The builder's obligation: while ``seat`` owns a build, only captures and builds onto its
    own builds; the trails if nothing else is left (see the module docstring)."""
    if not owns_build(table, seat):
        return moves

    def own_target(move) -> bool:
        item = table[move.target]
        return is_build(item) and item.owner == seat

    kept = tuple(m for m in moves if m.is_capture or (m.is_build and own_target(m)))
    return kept or tuple(m for m in moves if m.is_trail)
