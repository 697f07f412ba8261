"""Reference capture enumeration: what a played card may take (R-CAPTURE, R-ACE-SE, R-VAL-FI).

Written to be obviously correct, not fast. A *group* is a set of table cards whose capture
values can sum to the played card's value (a lone card of equal value is a group of one);
a capture is any union of pairwise disjoint groups. Captures are bitmasks over table
positions (bit i = ``table[i]``), so two identical cards of a double deck stay distinct.
A build (§6) is a group of one, taken whole and only by a card of its value; it never joins
loose cards in a group.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from simcasino.core.limits import GROUP_LIMIT, OPTION_LIMIT, TABLE_LIMIT, PositionTooLarge
from simcasino.core.rules import Rules
from simcasino.core.table import Build, is_build, item_cards

Table = Sequence[int | Build]


def _sums(cards: Sequence[int], rules: Rules) -> set[int]:
    sums = {0}
    for card in cards:
        sums = {s + v for s in sums for v in rules.table_values(card)}
    return sums


def _subsets_up_to(table: Table, limit: int, rules: Rules) -> Iterator[int]:
    """Masks of non-empty subsets of the loose cards whose smallest possible sum is at most
    ``limit``."""
    loose = [i for i, item in enumerate(table) if not is_build(item)]

    def grow(start: int, mask: int, low: int) -> Iterator[int]:
        for k in range(start, len(loose)):
            i = loose[k]
            low_i = low + min(rules.table_values(table[i]))
            if low_i <= limit:
                yield mask | 1 << i
                yield from grow(k + 1, mask | 1 << i, low_i)

    yield from grow(0, 0, 0)


def groups(value: int, table: Table, rules: Rules) -> list[int]:
    """Masks of the loose-card subsets that sum to ``value``, and of the builds of that value."""
    if len(table) > TABLE_LIMIT:
        raise PositionTooLarge(f"{len(table)} cards on the table")
    found = [1 << i for i, item in enumerate(table) if is_build(item) and item.value == value]
    for mask in _subsets_up_to(table, value, rules):
        members = [table[i] for i in range(len(table)) if mask >> i & 1]
        if value in _sums(members, rules):
            found.append(mask)
            if len(found) > GROUP_LIMIT:
                raise PositionTooLarge(f"over {GROUP_LIMIT} groups of value {value}")
    return found


def group_unions(found: list[int]) -> set[int]:
    """Every union of pairwise disjoint groups of ``found`` (R-CAPTURE): what one card whose
    value those groups make may take."""
    unions: set[int] = set()

    def extend(start: int, union: int) -> None:
        for i in range(start, len(found)):
            if found[i] & union == 0:
                unions.add(union | found[i])
                if len(unions) > OPTION_LIMIT:
                    raise PositionTooLarge(f"over {OPTION_LIMIT} captures for one card")
                extend(i + 1, union | found[i])

    extend(0, 0)
    return unions


def capture_masks(card: int, table: Table, rules: Rules) -> list[int]:
    """Every distinct capture ``card`` can make on ``table``, as ascending table masks."""
    captures: set[int] = set()
    for value in rules.hand_values(card):
        captures |= group_unions(groups(value, table, rules))
        if len(captures) > OPTION_LIMIT:
            raise PositionTooLarge(f"over {OPTION_LIMIT} captures for one card")
    return sorted(captures)


def distinct_captures(masks: list[int], table: Table) -> list[int]:
    """Drop captures that take the same kinds as an earlier one (R-DECK: two identical cards
    on the table are interchangeable): of two identical loose table cards, a capture may take
    the later only together with the earlier. Keeps the smallest mask of each kind set."""
    loose = [i for i, item in enumerate(table) if not is_build(item)]
    twins = [(i, j) for j in loose for i in loose if i < j and table[i] % 52 == table[j] % 52]
    return [m for m in masks if all(m >> i & 1 or not m >> j & 1 for i, j in twins)]


def largest_captures(masks: list[int], rules: Rules) -> list[int]:
    """R-OPTIONAL house rule / §6 Misère: the captures a card may make when it must take
    the largest: the most cards, or every capture no other capture contains (``max_capture``)."""
    if not masks:
        return masks
    if rules.max_capture == "maximal":
        return [m for m in masks if not any(o != m and o & m == m for o in masks)]
    most = max(m.bit_count() for m in masks)
    return [m for m in masks if m.bit_count() == most]


def allowed_captures(card: int, table: Table, rules: Rules) -> list[int]:
    """The captures a player may choose from with ``card``, distinct, ascending."""
    masks = distinct_captures(capture_masks(card, table, rules), table)
    return largest_captures(masks, rules) if rules.must_capture_max else masks


def is_mulle(card: int, mask: int, table: Table, within: bool = False) -> bool:
    """§6 Mulle: the card takes exactly one loose table card, identical to it; ``within``
    (Glimne's Mulle): the capture includes a card identical to it, in a build too."""
    if within:
        return any(c % 52 == card % 52 for c in mask_cards(mask, table))
    items = [item for i, item in enumerate(table) if mask >> i & 1]
    return len(items) == 1 and not is_build(items[0]) and items[0] % 52 == card % 52


def mulle_score(card: int, mask: int, table: Table, rules: Rules) -> int:
    """The points a capture scores as a mulle (§6): ``mulle_points``, or with ``mulle_value``
    the played card's capture value (its highest); 0 if it is no mulle."""
    if not is_mulle(card, mask, table, rules.mulle_within):
        return 0
    return max(rules.hand_values(card)) if rules.mulle_value else rules.mulle_points


def mask_cards(mask: int, table: Table) -> list[int]:
    """The table cards a mask selects, in table order (a build's cards in the order placed)."""
    return [card for i, item in enumerate(table) if mask >> i & 1 for card in item_cards(item)]
