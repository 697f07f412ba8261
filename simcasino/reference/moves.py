"""What a player may play (R-TURN, R-CAPTURE, R-OPTIONAL, §6 Builds), and why a move is not one.

The legal moves are listed in canonical order (`core.protocol.Move`); both engines list them
alike and the tests compare the lists. A move that is not among them is refused with a
reason naming the rule of docs/rules.md it breaks and the cards by name, worked out by
asking the same questions the listing answers, one at a time, so the reason and the list
cannot disagree. `why_not` is the one explainer: `DealState.why_illegal` asks it of a
`Move`, `read_move` of a move named in words (what `play` shows a person). `possible_moves`
is what every seat knows a shown card may do, whatever the rest of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcasino.core.cards import card_code, rank_of
from simcasino.core.limits import MOVE_LIMIT, PositionTooLarge
from simcasino.core.notation import Key, item_kinds, move_name, named_moves, read_name
from simcasino.core.protocol import Move, MoveKind, View
from simcasino.core.rules import Rules
from simcasino.core.table import Build, is_build, item_code, value_name
from simcasino.reference.builds import (
    build_options,
    build_values,
    held_values,
    oblige,
    owns_build,
    playable_values,
)
from simcasino.reference.captures import allowed_captures, capture_masks, distinct_captures

Table = Sequence[int | Build]


def legal_moves(hand: Sequence[int], table: Table, rules: Rules, seat: int) -> tuple[Move, ...]:
    """R-TURN, R-OPTIONAL (and §6 must_capture, §6 Builds): trail, capture or build with any
    card; a card identical to an earlier one in hand adds no moves; canonical order."""
    moves = []
    for index, card in enumerate(hand):
        if _twin_before(hand, index) >= 0:
            continue
        captures = allowed_captures(card, table, rules)
        if not (captures and rules.must_capture):
            moves.append(Move.trail(index, card))
        moves.extend(Move.capture(index, card, m) for m in captures)
        if rules.builds:
            moves.extend(
                Move.build(index, card, t, v) for t, v in build_options(hand, index, table, rules)
            )
    listed = oblige(tuple(moves), table, seat) if rules.builds else tuple(moves)
    if len(listed) > MOVE_LIMIT:
        raise PositionTooLarge(f"over {MOVE_LIMIT} legal moves")
    return listed


def possible_moves(
    hand_index: int, card: int, table: Table, rules: Rules, seat: int
) -> tuple[Move, ...]:
    """Every move ``card`` (at ``hand_index``) could make for ``seat`` whatever else it
    holds, in canonical order: what every seat knows once the card is shown. Its legal
    moves (`legal_moves`) are among them: they differ only where §6 Builds ask the builder to
    hold the declared value, and where the builder's obligation lets a trail through only when
    the hand has nothing else (a build onto its own build needs a value it holds)."""
    captures = allowed_captures(card, table, rules)
    obliged = rules.builds and owns_build(table, seat)
    moves = [] if captures and (rules.must_capture or obliged) else [Move.trail(hand_index, card)]
    moves += [Move.capture(hand_index, card, m) for m in captures]
    if rules.builds:
        values = playable_values(rules)
        moves += [
            Move.build(hand_index, card, t, v)
            for t, item in enumerate(table)
            if not _twin_on_table(table, t)
            and (not obliged or (is_build(item) and item.owner == seat))
            for v in build_values(card, item, rules)
            if v in values
        ]
    return tuple(moves)


def _twin_on_table(table: Table, target: int) -> bool:
    """Is ``table[target]`` a loose card identical to an earlier loose one (R-DECK: builds go onto
    the first)?"""
    item = table[target]
    return not is_build(item) and any(
        not is_build(o) and o % 52 == item % 52 for o in table[:target]
    )


def why_not(view: View, move: object) -> str | None:
    """None if ``move`` is one of ``view.moves``, else why not, in words, starting with the id
    of the rule it breaks (the one explainer: `DealState.why_illegal`, `read_move`)."""
    if isinstance(move, Move) and move in view.moves:
        return None
    if view.chooser_for >= 0:
        card = card_code(view.moves[0].card) if view.moves else "card"
        options = " or ".join(move_name(m, view.table) for m in view.moves)
        return (
            f"§6 Misère: seat {view.seat} picks which capture seat {view.chooser_for}'s {card} "
            f"makes: {options}"
        )
    return illegal_reason(move, view.hand, view.table, view.rules, view.seat)


def read_move(view: View, text: str) -> Move:
    """The legal move of ``view`` that ``text`` names (`core.notation`); ValueError saying
    why there is none (`why_not`), or asking which value a build declares."""
    wanted = read_name(text)
    matches = named_moves(view, wanted)
    if not matches:
        raise ValueError(
            f"{text.strip()!r} is not a legal move here: {_named_reason(view, wanted)}"
        )
    values = {move.value for move in matches}
    if len(values) > 1:
        names = ", ".join(value_name(v) for v in sorted(values))
        raise ValueError(
            f"{text.strip()!r} can make a build of {names}: say which, e.g. '{text.strip()} to "
            f"{value_name(min(values))}'"
        )
    return matches[0]


def _named_reason(view: View, wanted: Key) -> str:
    """Why the move a name names is not legal: the move it would be, explained by `why_not`
    (or the item it names that is not on the table)."""
    kind, card, items, value = wanted
    held = [i for i, c in enumerate(view.hand) if c % 52 == card]
    hand_index, card_id = (held[0], view.hand[held[0]]) if held else (-1, card)
    if view.chooser_for >= 0:
        return why_not(view, None) or ""
    places, free = {}, list(enumerate(view.table))
    for kinds in items.elements():
        place = next((i for i, item in free if item_kinds(item) == kinds), None)
        if place is None:
            return f"R-CAPTURE: {'+'.join(card_code(c) for c in kinds)} is not on the table"
        places[place] = kinds
        free = [(i, item) for i, item in free if i != place]
    if kind == MoveKind.TRAIL:
        return why_not(view, Move.trail(hand_index, card_id)) or ""
    if kind == MoveKind.CAPTURE:
        return why_not(view, Move.capture(hand_index, card_id, sum(1 << i for i in places))) or ""
    target = next(iter(places))
    values = build_values(card_id, view.table[target], view.rules) if held else []
    return why_not(view, Move.build(hand_index, card_id, target, value or (values or [0])[0])) or ""


def illegal_reason(
    move: object, hand: Sequence[int], table: Table, rules: Rules, seat: int
) -> str | None:
    """None if ``move`` is one of `legal_moves`, else why not, in words, starting with the id
    of the rule it breaks."""
    if not isinstance(move, Move) or move.kind not in tuple(MoveKind):
        return (
            "R-TURN: a move plays one card from the hand as a trail, a capture or a build, not "
            f"{move!r}"
        )
    if move in legal_moves(hand, table, rules, seat):
        return None
    if not (0 <= move.hand_index < len(hand) and hand[move.hand_index] == move.card):
        return _not_held(move, hand, seat)
    twin = _twin_before(hand, move.hand_index)
    if twin >= 0:
        return (
            f"R-DECK: the two {card_code(move.card)} in hand are the same card to play: "
            f"the move plays the first (hand position {twin})"
        )
    why = {
        MoveKind.TRAIL: _trail_reason,
        MoveKind.CAPTURE: _capture_reason,
        MoveKind.BUILD: _build_reason,
    }
    return why[move.kind](move, hand, table, rules, seat) or "R-TURN: not a legal move here"


def _twin_before(hand: Sequence[int], index: int) -> int:
    """The hand position of an earlier card identical to ``hand[index]`` (R-DECK), or -1."""
    return next((i for i in range(index) if hand[i] % 52 == hand[index] % 52), -1)


def _not_held(move: Move, hand: Sequence[int], seat: int) -> str:
    code = card_code(move.card % 52)
    if move.card in hand:
        return f"R-TURN: {code} is at hand position {hand.index(move.card)}, not {move.hand_index}"
    return (
        f"R-TURN: seat {seat} holds no {code} (its hand: "
        f"{' '.join(map(card_code, hand)) or 'empty'})"
    )


def _trail_reason(
    move: Move, hand: Sequence[int], table: Table, rules: Rules, seat: int
) -> str | None:
    if (move.taken, move.target, move.value) != (0, -1, 0):
        return "R-TURN: a trail takes nothing and builds nothing"
    if rules.must_capture and allowed_captures(move.card, table, rules):
        return (
            f"R-OPTIONAL (must_capture, §6 Misère): {card_code(move.card)} can capture, "
            "so it may not be trailed"
        )
    if rules.builds and owns_build(table, seat):
        return (
            f"R-BUILD: seat {seat} owns a build on the table: it must take it, raise it or capture "
            "something else (no plain trail)"
        )
    return None


def _capture_reason(
    move: Move, hand: Sequence[int], table: Table, rules: Rules, seat: int
) -> str | None:
    code, taken = card_code(move.card), move.taken
    if not table:
        return f"R-TABBE: the table is empty (swept), so {code} can only be trailed"
    if taken <= 0 or taken >> len(table) or (move.target, move.value) != (-1, 0):
        return f"R-CAPTURE: a capture takes items of the table, at positions 0-{len(table) - 1}"
    masks = capture_masks(move.card, table, rules)
    items = " ".join(item_code(item) for i, item in enumerate(table) if taken >> i & 1)
    if taken not in masks:
        return (
            f"R-CAPTURE: {code}{_values_note(move.card, rules)} cannot take {items}: they do not "
            f"split into disjoint groups each worth {_values(rules.hand_values(move.card))}"
        )
    if taken not in distinct_captures(masks, table):
        return "R-DECK: of two identical table cards a capture takes the first, or both"
    house = "must_capture_max, §6 Misère" if rules.must_capture else "must_capture_max"
    return (
        f"R-OPTIONAL ({house}): {code} must make the largest capture it can, not take {items} only"
    )


def _build_reason(
    move: Move, hand: Sequence[int], table: Table, rules: Rules, seat: int
) -> str | None:
    code = card_code(move.card)
    if not rules.builds:
        return "R-BUILD: these rules have no builds (knob builds = false)"
    if not 0 <= move.target < len(table) or move.taken:
        return f"R-BUILD: a build goes onto one table item, at positions 0-{len(table) - 1}"
    item, value = table[move.target], value_name(move.value)
    if move.value not in build_values(move.card, item, rules):
        if is_build(item) and item.double:
            return f"R-BUILD: {item_code(item)} is a double build, which can no longer be raised"
        made = _values(build_values(move.card, item, rules))
        return f"R-BUILD: {code} onto {item_code(item)} makes {made}, not {value}"
    if not rules.build_penalty and move.value not in held_values(hand, move.hand_index, rules):
        return (
            f"R-BUILD: the builder must hold a card of the announced value {value} "
            "(build_penalty = 0)"
        )
    if (move.target, move.value) not in build_options(hand, move.hand_index, table, rules):
        return "R-DECK: of two identical loose table cards a build goes onto the first"
    return (
        f"R-BUILD: seat {seat} owns a build on the table: it may only capture or build onto "
        "its own build"
    )


def _values(values: Sequence[int]) -> str:
    return " or ".join(value_name(v) for v in values) or "nothing"


def _values_note(card: int, rules: Rules) -> str:
    """Where a card's value from hand is not its rank (R-ACE-SE, R-VAL-FI), say so."""
    played = rules.hand_values(card)
    if len(played) > 1:
        return f" (R-ACE-SE: an ace counts {_values(played)} from hand)"
    return f" (R-VAL-FI: it counts {played[0]} from hand)" if played[0] != rank_of(card) else ""
