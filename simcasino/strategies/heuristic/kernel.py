"""The heuristic's choice in the kernel: every legal move valued as the weights times its
`terms`, the best kept (the first in canonical order on ties), as `python.Heuristic` does.

`move_terms` writes a move's terms, one per weight, into the workspace (TERMS) and
`move_value` weighs them: this is how moves are valued under §6 builds rules, and what the
tests hold to the Python twin term by term. Tables of loose cards (every rule set without
builds, the bulk of all play) take a faster road to the same values, because heuristic play
must stay within a small factor of greedy's speed:

- the weights never change within a deal, so the material of taking each card and the value
  of trailing it are tabulated per seat (`prepare_seat`, from the same term functions);
- a move's cheap terms are weighed while the moves are listed (`_cheap`), and its costly ones
  (those of the table it leaves: tabbe_denial, finnish_threats, trail_dead_rank) only if its
  cheap terms leave it a chance to be the best (`_best_first`);
- the helpers of the cheap terms are inlined by numba (inline="always"), as most are too big
  for LLVM to inline and a numba call stalls the caller (measured: 9.45 -> 7.9 us a heuristic
  deal). Inlining costs compile time for every copy, so what runs once or twice a decision
  (`_finish`) or for a few cards (`_rare_terms`) is a call: measured on an empty cache, the
  heuristic's choice compiled in 58 s with everything inlined and 8 s so, at 62,242
  instructions a deal against 61,519 (`benchmarks/bench_instructions.py heuristic`).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.builds import build_slot, build_value, item_key
from simcasino.engine.captures import card_options, is_mulle, mulle_points
from simcasino.engine.layout import WsPointer, hand_card, hand_size, param
from simcasino.engine.moves import list_moves
from simcasino.strategies.heuristic.regions import (
    CARD_HINTS,
    CARD_VALUE_NIBBLES,
    HAND_RANKS,
    HAND_VALUE_NS,
    MOVE_KEY,
    MOVE_VALUE,
    SEAT_CARD_VALUES,
    TERMS,
    TERMS_FIXED,
    THREATS,
)
from simcasino.strategies.heuristic.survey import (
    count_card,
    forget_survey,
    rank_dead,
    start_decision,
    value_nibbles,
)
from simcasino.strategies.heuristic.terms import (
    RARE_HINTS,
    ace_value,
    builds,
    card_hints,
    card_value,
    finnish_threats,
    fixed_build,
    fixed_capture,
    hold_tens,
    hold_twos,
    lone_ace,
    material,
    risky_storan,
    spade_value,
    storan_early,
    tabbe_denial,
    trail_dead_rank,
    trail_points,
    trail_rank,
    trail_spades,
)
from simcasino.strategies.heuristic.weights import (
    ACE_VALUE,
    BUILDS,
    CARD_VALUE,
    FINNISH_THREATS,
    HOLD_TENS,
    HOLD_TWOS,
    LONE_ACE,
    ORDER,
    RISKY_STORAN,
    SPADE_VALUE,
    STORAN_EARLY,
    TABBE_DENIAL,
    TRAIL_DEAD_RANK,
    TRAIL_POINTS,
    TRAIL_RANK,
    TRAIL_SPADES,
)

_NEVER = np.int64(-(1 << 62))  # below every value: no pruning
WEIGHTS = len(ORDER)


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """The heuristic's move: returns the hand slot, the capture mask (or §6 build code) goes
    to CHOSEN_MASK."""
    if not ws[layout.R_BUILDS]:
        return _choose_loose(ws, seat)
    return choose_listed(ws, seat, list_moves(ws, seat))


@kernel
def choose_listed(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """The best valued of the first ``count`` listed moves (`move_value`, the first on ties):
    every legal move under §6 builds rules, or those a move filter allows (`follow`)."""
    best = _best_valued(ws, _value_moves(ws, seat, count))
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + best]
    return ws[layout.MOVE_SLOT + best]


@kernel
def rank_moves(ws: WsPointer, seat: np.int64, count: np.int64, keep: np.int64) -> np.int64:
    """Order the first ``count`` listed moves by value, best first (canonical order on ties),
    keeping the best ``keep``; returns how many were kept. The search tries only these."""
    if ws[layout.R_BUILDS]:
        return keep_best(ws, _value_moves(ws, seat, count), keep)
    start_decision(ws, seat)
    for m in range(count):
        _bound(ws, seat, m, hand_card(ws, seat, ws[layout.MOVE_SLOT + m]))
    for m in range(count):
        ws[MOVE_VALUE + m] = _finish(ws, seat, m, _NEVER)
    return keep_best(ws, count, keep)


@kernel
def keep_best(ws: WsPointer, count: np.int64, keep: np.int64) -> np.int64:
    """Sort the best ``keep`` of the first ``count`` moves by MOVE_VALUE to the front (the
    first in canonical order on ties); returns how many were kept."""
    kept = min(count, keep)
    for i in range(kept):  # selection sort of the best ``kept``: stable, and moves are few
        best = i
        for m in range(i + 1, count):
            if ws[MOVE_VALUE + m] > ws[MOVE_VALUE + best]:
                best = m
        for region in (layout.MOVE_SLOT, layout.MOVE_MASK, MOVE_VALUE):
            moved = ws[region + best]
            for m in range(best, i, -1):
                ws[region + m] = ws[region + m - 1]
            ws[region + i] = moved
    return kept


@kernel
def prepare_seat(ws: WsPointer, seat: np.int64) -> None:
    """Per card, from the weights of ``seat``: the value of trailing it (trail_points,
    trail_spades, trail_rank; a dead rank, trail_dead_rank, is a decision's) and of taking
    it (the material); and the per-card tables the survey and the rarer terms read (shared
    by the seats)."""
    values = SEAT_CARD_VALUES + seat * 2 * layout.DECK_CAP
    for card in range(ws[layout.DECK_N]):
        ws[values + card] = (
            param(ws, seat, TRAIL_POINTS) * trail_points(ws, card)
            + param(ws, seat, TRAIL_SPADES) * trail_spades(ws, card)
            + param(ws, seat, TRAIL_RANK) * trail_rank(ws, card)
        )
        ws[values + layout.DECK_CAP + card] = material(ws, seat, ws[layout.CARD_KEY + card])
        ws[CARD_VALUE_NIBBLES + card] = value_nibbles(ws[layout.HAND_BITS + card])
        ws[CARD_HINTS + card] = card_hints(ws, card)


# --- every move by its terms: §6 builds rules, and the tests --------------------------------------


@kernel
def move_terms(ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64) -> None:
    """The terms of playing hand ``slot`` as ``code`` (capture mask, 0 trail, negative build
    code) into TERMS, one per weight slot, and what no weight scales into TERMS_FIXED (call
    `survey.start_decision` first, once a decision)."""
    card, n = hand_card(ws, seat, slot), ws[layout.TABLE_N]
    hints = ws[CARD_HINTS + card]
    keep, extra, value, key = (np.int64(1) << n) - 1, np.int64(-1), np.int64(0), np.int64(0)
    for k in range(TERMS, TERMS_FIXED + 1):
        ws[k] = 0
    if code > 0:
        taken = _capture_key(ws, card, code)
        ws[TERMS + ACE_VALUE] = ace_value(taken)
        ws[TERMS + SPADE_VALUE] = spade_value(taken)
        ws[TERMS + CARD_VALUE] = card_value(taken)
        ws[TERMS_FIXED] = fixed_capture(ws, code)
        keep &= ~code
    elif code == 0:
        ws[TERMS + TRAIL_POINTS] = trail_points(ws, card)
        ws[TERMS + TRAIL_SPADES] = trail_spades(ws, card)
        ws[TERMS + TRAIL_DEAD_RANK] = trail_dead_rank(rank_dead(ws, card))
        ws[TERMS + TRAIL_RANK] = trail_rank(ws, card)
        extra = card
    else:
        target = build_slot(code)
        value, key = (
            build_value(code),
            item_key(ws, ws[layout.TABLE + target]) + ws[layout.CARD_KEY + card],
        )
        ws[TERMS + BUILDS] = builds(ws, seat, slot, value, key)
        ws[TERMS_FIXED] = fixed_build(ws, seat, slot, value)
        keep &= ~(np.int64(1) << target)
    ws[TERMS + HOLD_TWOS] = hold_twos(ws, seat, code, hints)
    ws[TERMS + HOLD_TENS] = hold_tens(ws, seat, code, hints)
    ws[TERMS + RISKY_STORAN] = risky_storan(ws, seat, card, code, hints)
    builds_rules = ws[layout.R_BUILDS] != 0
    ws[TERMS + STORAN_EARLY] = storan_early(ws, code, hints)
    ws[TERMS + LONE_ACE] = lone_ace(ws, seat, slot)
    ws[TERMS + FINNISH_THREATS] = finnish_threats(ws, keep, extra, value, builds_rules)
    ws[TERMS + TABBE_DENIAL] = tabbe_denial(ws, seat, keep, extra, value, key, builds_rules)


@kernel
def move_value(ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64) -> np.int64:
    """`python.Heuristic.value`: the weights times `move_terms`, plus the fixed points, in
    micro-points, negated where the fewest points win."""
    move_terms(ws, seat, slot, code)
    total = ws[TERMS_FIXED]
    for k in range(WEIGHTS):
        total += param(ws, seat, k) * ws[TERMS + k]
    return -total if ws[layout.R_LOW_WINS] else total


@kernel
def _capture_key(ws: WsPointer, card: np.int64, code: np.int64) -> np.int64:
    """The packed key of what a capture takes: the played card, the items (builds whole), and
    a §6 mulle's points as rule points."""
    key, rest = ws[layout.CARD_KEY + card], code
    while rest:
        key += item_key(ws, ws[layout.TABLE + trailing_zeros(rest)])
        rest &= rest - 1
    if is_mulle(ws, card, code):
        key += mulle_points(ws, card) * layout.KEY_POINTS
    return key


@kernel
def _value_moves(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """MOVE_VALUE of the first ``count`` listed moves; returns ``count``."""
    start_decision(ws, seat)
    for m in range(count):
        ws[MOVE_VALUE + m] = move_value(
            ws, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m]
        )
    return count


@kernel
def _best_valued(ws: WsPointer, count: np.int64) -> np.int64:
    best = 0
    for m in range(1, count):
        best = m if ws[MOVE_VALUE + m] > ws[MOVE_VALUE + best] else best
    return best


# --- tables of loose cards: the fast road ---------------------------------------------------------


@kernel
def _choose_loose(ws: WsPointer, seat: np.int64) -> np.int64:
    """The best value without builds, the first in canonical order on ties. Every legal move
    gets its cheap terms first (`_cheap`); then the moves are finished (`_finish`) best bound
    first, until no bound left can beat the best value: most decisions finish one or two
    moves. (Exact only while the costly terms cannot add, `_prunes`; otherwise every move
    is finished.)"""
    if (
        hand_size(ws, seat) == 1
        and ws[layout.HAND_BITS + hand_card(ws, seat, 0)] & ws[layout.GROUP_VALUES] == 0
    ):
        ws[layout.CHOSEN_MASK] = (
            0  # the last card, and it cannot capture: trailing it is the only move
        )
        return 0
    best = _best_move(ws, seat)
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + best]
    return ws[layout.MOVE_SLOT + best]


@kernel(inline="always")
def _best_move(ws: WsPointer, seat: np.int64) -> np.int64:
    """The index of the legal move of best value (the first on ties), listed by `_list_cheap`."""
    forget_survey(ws)
    count, pick, runner_up = _list_cheap(ws, seat)
    if _prunes(ws, seat):
        return _best_first(ws, seat, count, pick, runner_up)
    best = 0
    for m in range(count):
        ws[MOVE_VALUE + m] = _finish(ws, seat, m, _NEVER)
        best = m if ws[MOVE_VALUE + m] > ws[MOVE_VALUE + best] else best
    return best


@kernel(inline="always")
def _list_cheap(ws: WsPointer, seat: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """The legal moves into MOVE_SLOT/MOVE_MASK in canonical order, with `_bound`, and the
    hand counted as `survey.start_decision` counts it; returns how many, the move of best
    bound (the first of ties) and the best bound of the others. (Listing and weighing in one
    pass: `moves.list_moves` and a second pass measured slower.)"""
    count, ranks, values, threats = 0, np.int64(0), np.int64(0), ws[layout.HIDDEN_THREATS]
    pick, bound, runner_up = np.int64(-1), _NEVER, _NEVER
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        ranks, values, threats = count_card(ws, card, ranks, values, threats)
        options = card_options(ws, card)
        if count + options + 1 > layout.MOVE_CAP:
            raise RuntimeError("too many legal moves")
        if options == 0 or not ws[layout.R_MUST_CAPTURE]:  # §6: a card that can capture must
            ws[layout.MOVE_SLOT + count], ws[layout.MOVE_MASK + count] = slot, 0
            _bound(ws, seat, count, card)
            pick, bound, runner_up = _ranked(ws[MOVE_VALUE + count], count, pick, bound, runner_up)
            count += 1
        for k in range(options):
            ws[layout.MOVE_SLOT + count], ws[layout.MOVE_MASK + count] = (
                slot,
                ws[layout.OPTIONS + k],
            )
            _bound(ws, seat, count, card)
            pick, bound, runner_up = _ranked(ws[MOVE_VALUE + count], count, pick, bound, runner_up)
            count += 1
    ws[HAND_RANKS], ws[HAND_VALUE_NS], ws[THREATS] = ranks, values, threats
    return count, pick, runner_up


@kernel(inline="always")
def _ranked(
    value: np.int64, m: np.int64, pick: np.int64, bound: np.int64, runner_up: np.int64
) -> tuple[np.int64, np.int64, np.int64]:
    """The best bound so far (``pick``, the first of ties; ``bound``) and the next best,
    after move ``m`` of bound ``value``."""
    if value > bound:
        return m, value, bound
    return pick, bound, max(runner_up, value)


@kernel(inline="always")
def _bound(ws: WsPointer, seat: np.int64, m: np.int64, card: np.int64) -> None:
    """The cheap terms of listed move ``m`` (of ``card``) into MOVE_KEY, and in MOVE_VALUE the
    most its costly terms can add (an upper bound of the value, when `_prunes`): a trail's
    dead-rank discount."""
    mask = ws[layout.MOVE_MASK + m]
    ws[MOVE_KEY + m] = _cheap(ws, seat, ws[layout.MOVE_SLOT + m], card, mask)
    dead_rank = max(0, param(ws, seat, TRAIL_DEAD_RANK) * trail_dead_rank(True)) if mask == 0 else 0
    ws[MOVE_VALUE + m] = ws[MOVE_KEY + m] + dead_rank


@kernel(inline="always")
def _best_first(
    ws: WsPointer, seat: np.int64, count: np.int64, pick: np.int64, runner_up: np.int64
) -> np.int64:
    """The move of best value (the first on ties), finishing moves in order of their bounds
    (MOVE_VALUE, overwritten as they are finished) until none left can beat it. ``pick``:
    the move of best bound (the first of ties), ``runner_up``: the best bound of the others."""
    ws[MOVE_VALUE + pick] = _NEVER
    best, best_value = pick, _finish(ws, seat, pick, _NEVER)
    if best_value > runner_up:  # no other move can reach it: no scan
        return best
    while True:
        pick, bound = np.int64(-1), _NEVER
        for m in range(count):
            if ws[MOVE_VALUE + m] > bound:
                pick, bound = m, ws[MOVE_VALUE + m]
        if pick < 0 or bound < best_value or (bound == best_value and pick > best):
            return best
        ws[MOVE_VALUE + pick] = _NEVER
        value = _finish(ws, seat, pick, best_value)
        if value > best_value or (value == best_value and pick < best):
            best, best_value = pick, value


@kernel
def _prunes(ws: WsPointer, seat: np.int64) -> bool:
    """Are the cheap terms plus the dead-rank discount an upper bound of a move's value? Only
    if the costly terms never add (their weights are not negative and the value is not
    negated for low-wins rules)."""
    return (
        not ws[layout.R_LOW_WINS]
        and param(ws, seat, TABBE_DENIAL) >= 0
        and param(ws, seat, FINNISH_THREATS) >= 0
    )


@kernel
def _finish(ws: WsPointer, seat: np.int64, m: np.int64, floor: np.int64) -> np.int64:
    """`move_value` of listed move ``m`` (its cheap terms in MOVE_KEY): those, a trail's
    dead-rank discount, and the terms of the table the move leaves. Once the value is below
    ``floor`` the terms left are skipped: when `_prunes` they only subtract, so the move
    cannot be the best and needs no exact value."""
    slot, mask = ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m]
    card, full = hand_card(ws, seat, slot), (np.int64(1) << ws[layout.TABLE_N]) - 1
    total = ws[MOVE_KEY + m]
    if (
        mask == 0
    ):  # a trail: the table and the card (two calls, so each sees its table as constants)
        if rank_dead(ws, card):
            total += param(ws, seat, TRAIL_DEAD_RANK) * trail_dead_rank(True)
        total = _left_terms(ws, seat, total, floor, full, card)
    else:
        total = _left_terms(ws, seat, total, floor, full & ~mask, np.int64(-1))
    return -total if ws[layout.R_LOW_WINS] else total


@kernel(inline="always")
def _left_terms(
    ws: WsPointer, seat: np.int64, total: np.int64, floor: np.int64, keep: np.int64, extra: np.int64
) -> np.int64:
    """``total`` with the terms of the table left added, while it is not below ``floor``."""
    if total >= floor:
        total += param(ws, seat, TABBE_DENIAL) * tabbe_denial(ws, seat, keep, extra, 0, 0, False)
    if total >= floor:
        total += param(ws, seat, FINNISH_THREATS) * finnish_threats(ws, keep, extra, 0, False)
    return total


@kernel(inline="always")
def _cheap(
    ws: WsPointer, seat: np.int64, slot: np.int64, card: np.int64, mask: np.int64
) -> np.int64:
    """The terms of `move_value` that cost a few loads (all but the costly ones, see
    `_finish`) of playing ``card`` (hand slot ``slot``) taking ``mask`` (0: trail), in
    micro-points, not yet negated for low-wins rules. They are weighed while the moves are
    listed, before the hand is counted (see `survey`)."""
    values = SEAT_CARD_VALUES + seat * 2 * layout.DECK_CAP
    if mask == 0:
        total = ws[values + card]
    else:
        take = values + layout.DECK_CAP
        total = ws[take + card]
        rest = mask
        while rest:
            total += ws[take + ws[layout.TABLE + trailing_zeros(rest)]]
            rest &= rest - 1
        one = mask & (mask - 1) == 0
        if (
            ws[layout.DECK_N] > layout.KINDS
            and one
            and _same_kind(ws, ws[layout.TABLE + trailing_zeros(mask)], card)
        ):
            # a mulle: its points are rule points
            total += material(ws, seat, ws[layout.R_MULLE_PTS] * layout.KEY_POINTS)
        total += fixed_capture(ws, mask)
    hints = ws[CARD_HINTS + card]
    if hints & RARE_HINTS:
        total += _rare_terms(ws, seat, card, mask, hints)
    if hand_size(ws, seat) == 2:  # lone_ace: only a move from a hand of two can leave one
        total += _weighed(ws, seat, LONE_ACE, lone_ace(ws, seat, slot))
    return total


@kernel
def _rare_terms(
    ws: WsPointer, seat: np.int64, card: np.int64, mask: np.int64, hints: np.int64
) -> np.int64:
    """The weighed terms only a few cards can have (`terms.RARE_HINTS`: twos, tens, 10♦). Not
    inlined: `_cheap` is inlined at two call sites, and two copies of these cost compile time
    (measured) while a call for the few cards that have them costs little."""
    return (
        _weighed(ws, seat, HOLD_TWOS, hold_twos(ws, seat, mask, hints))
        + _weighed(ws, seat, HOLD_TENS, hold_tens(ws, seat, mask, hints))
        + _weighed(ws, seat, RISKY_STORAN, risky_storan(ws, seat, card, mask, hints))
        + _weighed(ws, seat, STORAN_EARLY, storan_early(ws, mask, hints))
    )


@kernel(inline="always")
def _weighed(ws: WsPointer, seat: np.int64, weight: np.int64, term: np.int64) -> np.int64:
    """The weight times a term that is mostly 0 (no weight loaded then)."""
    return param(ws, seat, weight) * term if term else 0


@kernel
def _same_kind(ws: WsPointer, a: np.int64, b: np.int64) -> bool:
    return ws[layout.RANK_ORDER + a] == ws[layout.RANK_ORDER + b]
