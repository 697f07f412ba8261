"""The rule books' advice, one registered object per claim of docs/rules.md §7 (`CLAIMS`: its
id, words, rule sets and the heuristic weights carrying it) with its move test: given what a
player may see and one legal move, does the move follow the claim, break it, or is the claim
silent about it? Everything that reads a claim (`follow=`, rules and cards, the findings)
reads it here.

Why move tests: a claim measured as a weight of the heuristic says what that weight is worth
to the heuristic, not what the advice is worth (a small nudge may never change a move). A
test says of any move whether it does what the rule book says, so the advice can be imposed
on any player (`follow`), and every position where both a following and a breaking move
exist (a *contested* position) can be judged (`simcasino.findings`).

One function per claim id, named after it: the plain-Python twin ``s1(view, move)`` (obviously
correct, read off the `View`) and the kernel form ``s1_kernel(ws, seat, slot, code, context)``
(code: the capture mask, 0 a trail, a negative §6 build code), which the tests hold to each
other on random positions. A test answers FOLLOWS, BREAKS or SILENT. What a claim needs to
know of the whole position (the best capture there is, what the player cannot see) is its
``context``, worked out once a decision (`label_moves`); the twins work it out from the view.

The readings (docs/rules.md, Readings, "The claims as move tests (§7)"):

- S1: trailing a point card (an ace, 2♠, 10♦) breaks it; every other move follows.
- S2, S3: about trails only (captures and builds are silent): a spade trail breaks S2, another
  trail follows; a trail of a rank the player can still not see all of breaks S3, a dead rank
  follows.
- S4 (S5): while the player holds a two that is not 2♠ (a ten that is not 10♦) and cannot see
  2♠ (10♦), a move that plays the last such card breaks it; every other follows.
- S6: a move that leaves one to three cards on the table that one card the player cannot see
  takes whole breaks it (a sweep for the next player); every other follows; silent while a
  sweep would not score, and under §6 builds.
- S7: holding 10♦ and another ten that 10♦ could take next turn: if no card the player cannot
  see plays as 10, trailing that ten follows and every other move breaks; else trailing it
  breaks and every other move follows. Silent otherwise.
- S8: captures only: one taking the most rule points, and of those the most spades, follows.
- F1: a move leaving a group of 14, 15 or 16 (values some card plays as) on the table breaks it.
- F2: captures only: one taking the most spades follows.
- F3: from a hand of two, a move that keeps an ace as the last card breaks it.
- F4: while the player cannot see some ace (it counts the aces out), a move leaving a group of
  14 on the table breaks it (an ace from hand takes it); once every ace is seen it is silent.
- F5: holding 10♦ with a capture for it, capturing with it follows and every other move breaks.

Beside the claims, simple tests of a player's own (`EXTRA_IDS`), so that rules (`conditions`) can
prefer what no rule book says:

- lowest: trails only: trailing a card whose lowest value from hand is the lowest of the
  cards the player could trail follows, another trail breaks.
- capture: a capture follows, a trail breaks (capture rather than trail); builds are silent.
- points: while some capture takes a point card (the played card counted), such a capture
  follows and every other move breaks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcasino.advice.left import can_sweep, has_group, left_after, left_reach, sweep_values
from simcasino.advice.sight import is_unseen, unseen_cards
from simcasino.core.cards import (
    ACE,
    BIG_KASINO,
    KINDS,
    SMALL_KASINO,
    SPADES,
    is_spade,
    rank_of,
    suit_of,
)
from simcasino.core.jit import kernel
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.engine import layout
from simcasino.engine.builds import build_slot, build_value, item_key
from simcasino.engine.captures import popcount
from simcasino.engine.layout import WsPointer, hand_card, hand_size
from simcasino.engine.memory import Area
from simcasino.engine.moves import sweep_scores
from simcasino.reference.captures import mask_cards

SWEDISH, FINNISH = "swedish", "finnish"  # the rule sets a claim is asked in (its source plays)


@dataclass(frozen=True)
class Claim:
    """One claim of docs/rules.md §7: what the rule book ``says``, the words its sentences use
    (``tactic``: "careful trailing"), the heuristic ``weights`` carrying it (their
    dose–response in the findings; empty: none, as F4, whose counting of the aces every
    heuristic term reads) and the ``rule_sets`` it is asked in (the Swedish pages and Pagat:
    Swedish; the Finnish page: Finnish). Its move test is the twin of its id's name here and
    the kernel form beside it."""

    id: str
    section: str
    says: str
    tactic: str
    weights: tuple[str, ...]
    rule_sets: tuple[str, ...]


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "S1",
        "§7.1",
        "Do not trail a point card (an ace, 2♠, 10♦) if you can avoid it.",
        "keeping point cards back",
        ("trail_points",),
        (SWEDISH,),
    ),
    Claim(
        "S2",
        "§7.1",
        "If you trail, prefer a card that is not a spade.",
        "trailing non-spades",
        ("trail_spades",),
        (SWEDISH,),
    ),
    Claim(
        "S3",
        "§7.1",
        "Prefer to trail a card of a rank whose other cards are already gone.",
        "trailing dead ranks",
        ("trail_dead_rank",),
        (SWEDISH,),
    ),
    Claim(
        "S4",
        "§7.2",
        "Keep a two that is not a spade while 2♠ is out, to take it later.",
        "holding twos",
        ("hold_twos",),
        (SWEDISH,),
    ),
    Claim(
        "S5",
        "§7.2",
        "Keep a ten that is not a diamond while 10♦ is out, to catch it.",
        "holding tens",
        ("hold_tens",),
        (SWEDISH,),
    ),
    Claim(
        "S6",
        "§7.4",
        "Leave a card on the table on purpose so that the next player cannot sweep "
        "(3-5-7-Q with a queen: take 5 + 7 only).",
        "tabbe denial",
        ("tabbe_denial",),
        (SWEDISH,),
    ),
    Claim(
        "S7",
        "§7.5",
        "With 10♦ and another ten, trail the ten to take it with 10♦ next turn, when no "
        "one else can hold a ten.",
        "the risky storan",
        ("risky_storan",),
        (SWEDISH,),
    ),
    Claim(
        "S8",
        "§7.3",
        "Of the captures, an ace before a card count, spades before cards (with a 4 take A + 3 "
        "rather than 2 + 3 + 7 with a queen).",
        "valuing spades",
        ("spade_value",),
        (SWEDISH,),
    ),
    Claim(
        "F1",
        "§7.6",
        "Never lay a card that makes 14, 15 or 16 with the table: an ace, 2♠ or 10♦ takes it.",
        "leaving no 14-16",
        ("finnish_threats",),
        (FINNISH,),
    ),
    Claim(
        "F2",
        "§7.6",
        "Concentrate on the spades.",
        "concentrating on spades",
        ("spade_value",),
        (FINNISH,),
    ),
    Claim(
        "F3",
        "§7.6",
        "Do not keep an ace as your last card.",
        "no ace kept for last",
        ("lone_ace",),
        (FINNISH,),
    ),
    Claim(
        "F4",
        "§7.6",
        "Count the aces that have been played: leave no 14 on the table while one is out.",
        "counting aces",
        (),
        (FINNISH,),
    ),
    Claim(
        "F5",
        "§7.6",
        "Play 10♦ early when it is safe to do so.",
        "banking 10♦ early",
        ("storan_early",),
        (FINNISH,),
    ),
)


def claims_of(rule_set: str) -> tuple[Claim, ...]:
    """The claims asked in ``rule_set``."""
    return tuple(c for c in CLAIMS if rule_set in c.rule_sets)


CLAIM_IDS = tuple(claim.id for claim in CLAIMS)
FOLLOWS, SILENT, BREAKS = 1, 0, -1
FOLLOWED, BROKEN = 1, 2  # `label_moves`: some listed move follows, some breaks (both: contested)
EXTRA_IDS = (
    "lowest",
    "capture",
    "points",
)  # the simple tests beside the claims (see the module docstring)
THREATS = (14, 15, 16)  # F1: the values of an opponent's ace, 2♠ and 10♦ from hand (Finnish)
_THREAT_BITS = sum(1 << v for v in THREATS)

_area = Area("claims")  # its own memory (see `engine.memory`)
LABELS = _area.region(layout.MOVE_CAP)  # per listed move: FOLLOWS, SILENT or BREAKS


def preference_ids() -> tuple[str, ...]:
    """Every move test a rule may prefer: the claims, then the simple tests."""
    return CLAIM_IDS + EXTRA_IDS


def claim_code(claim: str) -> int:
    """The kernel's number of a move test's id (1 for S1 ...; 0 is none); ValueError naming the
    ids."""
    if claim not in preference_ids():
        raise ValueError(
            f"unknown claim {claim!r}: choose from {', '.join(preference_ids())} (docs/rules.md §7)"
        )
    return preference_ids().index(claim) + 1


# the kernel's codes of the move tests, each read by its id (its switch: `_label`)
_S1, _S2, _S3, _S4 = claim_code("S1"), claim_code("S2"), claim_code("S3"), claim_code("S4")
_S5, _S6, _S7, _S8 = claim_code("S5"), claim_code("S6"), claim_code("S7"), claim_code("S8")
_F1, _F2, _F3 = claim_code("F1"), claim_code("F2"), claim_code("F3")
_F4, _F5 = claim_code("F4"), claim_code("F5")
_LOWEST, _CAPTURE, _POINTS = claim_code("lowest"), claim_code("capture"), claim_code("points")


# --- the plain-Python twins -----------------------------------------------------------------------


def s1(view: View, move: Move) -> int:
    """S1 (§7.1): do not trail a point card (an ace, 2♠, 10♦) if you can avoid it."""
    return BREAKS if move.is_trail and view.rules.card_points(move.card) > 0 else FOLLOWS


def s2(view: View, move: Move) -> int:
    """S2 (§7.1): if you trail, prefer a card that is not a spade."""
    if not move.is_trail:
        return SILENT
    return BREAKS if is_spade(move.card) else FOLLOWS


def s3(view: View, move: Move) -> int:
    """S3 (§7.1): prefer to trail a card of a rank whose other cards are already gone."""
    if not move.is_trail:
        return SILENT
    live = any(rank_of(c) == rank_of(move.card) for c in unseen_cards(view).unseen)
    return BREAKS if live else FOLLOWS


def s4(view: View, move: Move) -> int:
    """S4 (§7.2): keep a two that is not a spade while 2♠ is out, to take it."""
    return _keep_catcher(view, move, 2, SMALL_KASINO)


def s5(view: View, move: Move) -> int:
    """S5 (§7.2): keep a ten that is not a diamond while 10♦ is out, to catch it."""
    return _keep_catcher(view, move, 10, BIG_KASINO)


def s6(view: View, move: Move) -> int:
    """S6 (§7.4): leave nothing the next player can sweep (one to three cards one unseen card
    takes)."""
    rules = view.rules
    if not view.sweep_scores or rules.builds:
        return SILENT
    left = left_after(view, move)
    if not 1 <= len(left) <= 3:
        return FOLLOWS
    values = {v for c in unseen_cards(view).unseen for v in rules.hand_values(c)}
    return BREAKS if any(can_sweep(left, v, rules) for v in sorted(values)) else FOLLOWS


def s7(view: View, move: Move) -> int:
    """S7 (§7.5): with 10♦ and another ten, trail the ten to take it with 10♦ next turn, only
    when no one else can hold a ten."""
    rules, hand = view.rules, view.hand
    if not any(c % KINDS == BIG_KASINO for c in hand) or not any(_other_ten(c) for c in hand):
        return SILENT
    need = rules.big_kasino_hand - 10
    if need and not has_group(list(view.table), need, rules):
        return SILENT
    safe = not any(10 in rules.hand_values(c) for c in unseen_cards(view).unseen)
    gambit = move.is_trail and _other_ten(move.card)
    return FOLLOWS if gambit == safe else BREAKS


def s8(view: View, move: Move) -> int:
    """S8 (§7.3): of the captures, take the most rule points (an ace before a card count), then
    the most spades (spades before cards)."""
    if not move.is_capture:
        return SILENT
    best = max(_points_spades(view, m) for m in view.moves if m.is_capture)
    return FOLLOWS if _points_spades(view, move) == best else BREAKS


def f1(view: View, move: Move) -> int:
    """F1 (§7.6): leave no combination of 14, 15 or 16 on the table (an ace, 2♠ or 10♦ takes it)."""
    rules, left = view.rules, left_after(view, move)
    return (
        BREAKS
        if any(has_group(left, v, rules) for v in THREATS if v in _playable(rules))
        else FOLLOWS
    )


def f2(view: View, move: Move) -> int:
    """F2 (§7.6): concentrate on the spades: of the captures, take the most spades."""
    if not move.is_capture:
        return SILENT
    best = max(_spades_taken(view, m) for m in view.moves if m.is_capture)
    return FOLLOWS if _spades_taken(view, move) == best else BREAKS


def f3(view: View, move: Move) -> int:
    """F3 (§7.6): do not keep an ace as your last card."""
    if len(view.hand) != 2:
        return SILENT
    return BREAKS if rank_of(view.hand[1 - move.hand_index]) == ACE else FOLLOWS


def f4(view: View, move: Move) -> int:
    """F4 (§7.6): count the aces: while one is out, leave no 14 on the table for it."""
    if not any(rank_of(c) == ACE for c in unseen_cards(view).unseen):
        return SILENT
    return BREAKS if has_group(left_after(view, move), 14, view.rules) else FOLLOWS


def f5(view: View, move: Move) -> int:
    """F5 (§7.6): play 10♦ early when it is safe: capture with it when it can."""
    if not any(m.is_capture and m.card % KINDS == BIG_KASINO for m in view.moves):
        return SILENT
    return FOLLOWS if move.is_capture and move.card % KINDS == BIG_KASINO else BREAKS


def lowest(view: View, move: Move) -> int:
    """Trail the lowest card: of the trails, those of a card with the lowest value from hand."""
    if not move.is_trail:
        return SILENT
    low = min(min(view.rules.hand_values(m.card)) for m in view.moves if m.is_trail)
    return FOLLOWS if min(view.rules.hand_values(move.card)) == low else BREAKS


def capture(view: View, move: Move) -> int:
    """Capture rather than trail."""
    return FOLLOWS if move.is_capture else BREAKS if move.is_trail else SILENT


def points(view: View, move: Move) -> int:
    """Take a point card when a capture can."""
    if not any(m.is_capture and _points_spades(view, m)[0] > 0 for m in view.moves):
        return SILENT
    return FOLLOWS if move.is_capture and _points_spades(view, move)[0] > 0 else BREAKS


def twins(ids: tuple[str, ...], found: dict[str, object]) -> dict[str, Callable[[View, Move], int]]:
    """Each move test's plain-Python twin, the function named as its id in lower case, found by
    that name in ``found`` (a module's namespace); ValueError naming every id without one, so
    a test added to `CLAIMS` or `EXTRA_IDS` without its twin fails at import, never pairing
    an id with its neighbour's function."""
    missing = [test_id for test_id in ids if not callable(found.get(test_id.lower()))]
    if missing:
        raise ValueError(
            f"move tests without a plain-Python twin: {', '.join(missing)} "
            f"(define {', '.join(m.lower() for m in missing)}(view, move) in "
            "simcasino.advice.claims)"
        )
    return {test_id: found[test_id.lower()] for test_id in ids}


PYTHON = twins(preference_ids(), globals())


def label(claim: str, view: View, move: Move) -> int:
    """FOLLOWS, SILENT or BREAKS: ``move`` in ``view`` against ``claim`` (an id of `CLAIM_IDS`)."""
    return PYTHON[claim](view, move)


def contested(claim: str, view: View) -> bool:
    """Do both a move following ``claim`` and a move breaking it exist in ``view``?"""
    labels = {label(claim, view, m) for m in view.moves}
    return FOLLOWS in labels and BREAKS in labels


def _keep_catcher(view: View, move: Move, rank: int, kasino: int) -> int:
    """S4, S5: while ``kasino`` is unseen and the hand holds another card of its rank (a
    catcher), playing the last catcher breaks the advice; every other move follows."""
    catchers = [i for i, c in enumerate(view.hand) if rank_of(c) == rank and c % KINDS != kasino]
    if not catchers or not any(c % KINDS == kasino for c in unseen_cards(view).unseen):
        return SILENT
    return BREAKS if catchers == [move.hand_index] else FOLLOWS


def _other_ten(card: int) -> bool:
    return rank_of(card) == 10 and card % KINDS != BIG_KASINO


def _taken(view: View, move: Move) -> list[int]:
    return [*mask_cards(move.taken, view.table), move.card]


def _points_spades(view: View, move: Move) -> tuple[int, int]:
    taken = _taken(view, move)
    return sum(view.rules.card_points(c) for c in taken), sum(is_spade(c) for c in taken)


def _spades_taken(view: View, move: Move) -> int:
    return sum(suit_of(c) == SPADES for c in _taken(view, move))


@functools.cache
def _playable(rules: Rules) -> set[int]:
    return {v for card in range(rules.deck_size) for v in rules.hand_values(card)}


# --- the kernel forms -----------------------------------------------------------------------------


@kernel
def label_moves(ws: WsPointer, claim: np.int64, seat: np.int64, count: np.int64) -> np.int64:
    """LABELS of the first ``count`` listed moves of ``seat`` against ``claim`` (its code);
    returns FOLLOWED if some move follows, plus BROKEN if some breaks."""
    context, flags = _context(ws, claim, seat, count), np.int64(0)
    for m in range(count):
        answer = _label(
            ws, claim, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m], context
        )
        ws[LABELS + m] = answer
        flags |= FOLLOWED if answer == FOLLOWS else BROKEN if answer == BREAKS else 0
    return flags


@kernel
def _label(
    ws: WsPointer,
    claim: np.int64,
    seat: np.int64,
    slot: np.int64,
    code: np.int64,
    context: np.int64,
) -> np.int64:
    """The kernel form of claim number ``claim`` (see `claim_code`). Why a branch per claim
    and not a table of functions: a table would need numba's first-class function types, which
    no other kernel uses. Every branch tests its code by equality, so a code no branch knows
    raises (`_extra_label`) rather than reaching a neighbour's test."""
    if claim == _S1:
        return s1_kernel(ws, seat, slot, code, context)
    if claim == _S2:
        return s2_kernel(ws, seat, slot, code, context)
    if claim == _S3:
        return s3_kernel(ws, seat, slot, code, context)
    if claim == _S4:
        return s4_kernel(ws, seat, slot, code, context)
    if claim == _S5:
        return s5_kernel(ws, seat, slot, code, context)
    if claim == _S6:
        return s6_kernel(ws, seat, slot, code, context)
    if claim == _S7:
        return s7_kernel(ws, seat, slot, code, context)
    if claim == _S8:
        return s8_kernel(ws, seat, slot, code, context)
    if claim == _F1:
        return f1_kernel(ws, seat, slot, code, context)
    if claim == _F2:
        return f2_kernel(ws, seat, slot, code, context)
    if claim == _F3:
        return f3_kernel(ws, seat, slot, code, context)
    if claim == _F4:
        return f4_kernel(ws, seat, slot, code, context)
    if claim == _F5:
        return f5_kernel(ws, seat, slot, code, context)
    return _extra_label(ws, claim, seat, slot, code, context)


@kernel
def _context(ws: WsPointer, claim: np.int64, seat: np.int64, count: np.int64) -> np.int64:
    """What the test of ``claim`` needs of the whole position, once a decision: the ranks
    (S3, F4) or values (S6, S7) of the cards ``seat`` cannot see, the best capture (S8, F2),
    whether the advice applies (S4, S5, F5)."""
    if claim == _S3 or claim == _F4:
        return _unseen_ranks(ws, seat)
    if claim == _S4 or claim == _S5:
        if claim == _S4:
            return _catcher_context(ws, seat, np.int64(2), np.int64(SMALL_KASINO))
        return _catcher_context(ws, seat, np.int64(10), np.int64(BIG_KASINO))
    if claim == _S6:
        return _unseen_values(ws, seat) if sweep_scores(ws) and not ws[layout.R_BUILDS] else -1
    if claim == _S7:
        return _storan_context(ws, seat)
    if claim == _S8 or claim == _F2 or claim == _F5:
        return _best_capture(ws, claim == _S8, claim == _F5, seat, count)
    if claim == _F1:
        return ws[layout.PLAYABLE_BITS] & _THREAT_BITS
    if claim == _LOWEST:
        return _lowest_trail(ws, seat, count)
    if claim == _POINTS:
        return np.int64(_best_capture(ws, True, False, seat, count) >= 256)
    return 0


@kernel
def _extra_label(
    ws: WsPointer,
    claim: np.int64,
    seat: np.int64,
    slot: np.int64,
    code: np.int64,
    context: np.int64,
) -> np.int64:
    """The simple tests (`EXTRA_IDS`), kernel forms of `lowest`, `capture` and `points`;
    ``context``: the lowest value a listed trail plays as (lowest), whether some listed capture
    takes a point card (points)."""
    if claim == _LOWEST:
        if code != 0:
            return SILENT
        return (
            FOLLOWS
            if trailing_zeros(ws[layout.HAND_BITS + hand_card(ws, seat, slot)]) == context
            else BREAKS
        )
    if claim == _CAPTURE:
        return FOLLOWS if code > 0 else BREAKS if code == 0 else SILENT
    if claim != _POINTS:
        return _no_kernel_form(claim)
    if context == 0:
        return SILENT
    takes = code > 0 and _points_spades_key(ws, hand_card(ws, seat, slot), code) >= 256
    return FOLLOWS if takes else BREAKS


@kernel
def _no_kernel_form(claim: np.int64) -> np.int64:
    """A code no branch of `_label` tests: an error, never another test's answer. (It returns
    its argument on a path never taken, codes being >= 1: a function that only raises is typed
    as returning None, which would make every label Optional.)"""
    if claim >= 0:
        raise ValueError("a move test without a kernel form in advice.claims._label")
    return claim


@kernel
def _lowest_trail(ws: WsPointer, seat: np.int64, count: np.int64) -> np.int64:
    """The lowest value from hand of a card some listed trail plays (64 with no trail)."""
    low = np.int64(64)
    for m in range(count):
        if ws[layout.MOVE_MASK + m] == 0:
            low = min(
                low,
                trailing_zeros(
                    ws[layout.HAND_BITS + hand_card(ws, seat, ws[layout.MOVE_SLOT + m])]
                ),
            )
    return low


@kernel
def s1_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s1`."""
    return (
        BREAKS if code == 0 and ws[layout.CARD_POINTS + hand_card(ws, seat, slot)] > 0 else FOLLOWS
    )


@kernel
def s2_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s2`."""
    if code != 0:
        return SILENT
    return BREAKS if hand_card(ws, seat, slot) % KINDS // 13 == SPADES else FOLLOWS


@kernel
def s3_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s3`; ``context``: bit r for each rank (0: ace) with a card ``seat`` cannot see."""
    if code != 0:
        return SILENT
    return BREAKS if context >> ws[layout.CARD_RANK + hand_card(ws, seat, slot)] & 1 else FOLLOWS


@kernel
def s4_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s4`; ``context``: the catchers' hand slots as bits while 2♠ is unseen, else 0."""
    return _keeps_catcher(slot, context)


@kernel
def s5_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s5`; ``context``: as `s4_kernel`'s, for tens and 10♦."""
    return _keeps_catcher(slot, context)


@kernel
def s6_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s6`; ``context``: the values the cards ``seat`` cannot see play as (-1: silent)."""
    if context < 0:
        return SILENT
    keep, extra, _ = _left(ws, seat, slot, code)
    n = popcount(keep) + (extra >= 0)
    if not 1 <= n <= 3:
        return FOLLOWS
    a = ws[layout.TABLE + trailing_zeros(keep)] if keep else extra
    keep &= keep - 1
    b = ws[layout.TABLE + trailing_zeros(keep)] if keep else extra if n >= 2 else np.int64(-1)
    keep &= keep - 1
    c = ws[layout.TABLE + trailing_zeros(keep)] if keep else extra if n == 3 else np.int64(-1)
    return BREAKS if sweep_values(ws, a, b, c) & context else FOLLOWS


@kernel
def s7_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s7`; ``context``: 0 silent, 1 the gambit is safe, 2 it is not."""
    if context == 0:
        return SILENT
    card = hand_card(ws, seat, slot)
    gambit = code == 0 and ws[layout.CARD_RANK + card] == 9 and card % KINDS != BIG_KASINO
    return FOLLOWS if gambit == (context == 1) else BREAKS


@kernel
def s8_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`s8`; ``context``: the best (rule points, spades) of the listed captures."""
    if code <= 0:
        return SILENT
    return FOLLOWS if _points_spades_key(ws, hand_card(ws, seat, slot), code) == context else BREAKS


@kernel
def f1_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`f1`; ``context``: the threatening values some card plays as."""
    return BREAKS if _left_reach(ws, seat, slot, code) & context else FOLLOWS


@kernel
def f2_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`f2`; ``context``: the most spades a listed capture takes."""
    if code <= 0:
        return SILENT
    return (
        FOLLOWS
        if _points_spades_key(ws, hand_card(ws, seat, slot), code) & 255 == context
        else BREAKS
    )


@kernel
def f3_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`f3`."""
    if hand_size(ws, seat) != 2:
        return SILENT
    return BREAKS if ws[layout.CARD_RANK + hand_card(ws, seat, 1 - slot)] == 0 else FOLLOWS


@kernel
def f4_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`f4`; ``context``: as `s3_kernel`'s (bit 0: an ace ``seat`` cannot see)."""
    if context & 1 == 0:
        return SILENT
    return BREAKS if _left_reach(ws, seat, slot, code) >> 14 & 1 else FOLLOWS


@kernel
def f5_kernel(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64, context: np.int64
) -> np.int64:
    """`f5`; ``context``: 1 if some listed capture plays 10♦."""
    if context == 0:
        return SILENT
    return FOLLOWS if code > 0 and hand_card(ws, seat, slot) % KINDS == BIG_KASINO else BREAKS


@kernel
def _keeps_catcher(slot: np.int64, catchers: np.int64) -> np.int64:
    """S4, S5: BREAKS if ``slot`` is the only catcher (bits of hand slots), SILENT with none."""
    if catchers == 0:
        return SILENT
    return BREAKS if catchers == np.int64(1) << slot else FOLLOWS


@kernel
def _left(
    ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64
) -> tuple[np.int64, np.int64, np.int64]:
    """The table a move leaves: the current slots it keeps, a trailed card (or -1), the value
    of a §6 build it makes (or 0)."""
    full = (np.int64(1) << ws[layout.TABLE_N]) - 1
    if code > 0:
        return full & ~code, np.int64(-1), np.int64(0)
    if code == 0:
        return full, hand_card(ws, seat, slot), np.int64(0)
    return full & ~(np.int64(1) << build_slot(code)), np.int64(-1), build_value(code)


@kernel
def _left_reach(ws: WsPointer, seat: np.int64, slot: np.int64, code: np.int64) -> np.int64:
    """Bit s: some group of the table the move leaves sums to s (a §6 build: its value)."""
    keep, extra, value = _left(ws, seat, slot, code)
    return left_reach(ws, keep, extra, value, ws[layout.R_BUILDS] != 0)


@kernel
def _points_spades_key(ws: WsPointer, card: np.int64, code: np.int64) -> np.int64:
    """(rule points, spades) a capture takes, the played card included, as points * 256 + spades."""
    key, rest = ws[layout.CARD_KEY + card], code
    while rest:
        key += item_key(ws, ws[layout.TABLE + trailing_zeros(rest)])
        rest &= rest - 1
    return key // layout.KEY_POINTS * 256 + key % 256


@kernel
def _best_capture(
    ws: WsPointer, points: bool, big: bool, seat: np.int64, count: np.int64
) -> np.int64:
    """Over the listed captures: the best (rule points, spades) key (``points``), or whether one
    plays 10♦ (``big``), else the most spades; -1 with no capture."""
    best = np.int64(-1)
    for m in range(count):
        code = ws[layout.MOVE_MASK + m]
        if code <= 0:
            continue
        card = hand_card(ws, seat, ws[layout.MOVE_SLOT + m])
        key = _points_spades_key(ws, card, code)
        value = np.int64(card % KINDS == BIG_KASINO) if big else key if points else key & 255
        best = max(best, value)
    return max(best, 0) if big else best


@kernel
def _unseen_ranks(ws: WsPointer, seat: np.int64) -> np.int64:
    """Bit r for each rank (0: ace) of which ``seat`` cannot see some card."""
    ranks = np.int64(0)
    for card in range(ws[layout.DECK_N]):
        if is_unseen(ws, seat, card):
            ranks |= np.int64(1) << ws[layout.CARD_RANK + card]
    return ranks


@kernel
def _unseen_values(ws: WsPointer, seat: np.int64) -> np.int64:
    """Bit v for each value some card ``seat`` cannot see plays as."""
    values = np.int64(0)
    for card in range(ws[layout.DECK_N]):
        if is_unseen(ws, seat, card):
            values |= ws[layout.HAND_BITS + card]
    return values


@kernel
def _catcher_context(ws: WsPointer, seat: np.int64, rank: np.int64, kasino: np.int64) -> np.int64:
    """S4, S5: bits of the hand slots holding a catcher (a card of ``rank`` other than the
    kasino) while some copy of the kasino is unseen, else 0."""
    unseen = False
    for card in range(kasino, ws[layout.DECK_N], KINDS):
        unseen = unseen or is_unseen(ws, seat, card)
    catchers = np.int64(0)
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        if ws[layout.CARD_RANK + card] == rank - 1 and card % KINDS != kasino:
            catchers |= np.int64(1) << slot
    return catchers if unseen else 0


@kernel
def _storan_context(ws: WsPointer, seat: np.int64) -> np.int64:
    """S7: 0 if it is silent (no 10♦ with another ten, or 10♦ could not take that ten next
    turn), 1 if no unseen card plays as 10, else 2."""
    big, ten = False, False
    for slot in range(hand_size(ws, seat)):
        card = hand_card(ws, seat, slot)
        big |= card % KINDS == BIG_KASINO
        ten |= ws[layout.CARD_RANK + card] == 9 and card % KINDS != BIG_KASINO
    need = ws[layout.R_BIG_HAND] - 10
    if not (big and ten) or (
        need
        and not left_reach(
            ws, (np.int64(1) << ws[layout.TABLE_N]) - 1, -1, 0, ws[layout.R_BUILDS] != 0
        )
        >> need
        & 1
    ):
        return 0
    return 2 if _unseen_values(ws, seat) >> 10 & 1 else 1
