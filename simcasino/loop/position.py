"""A kernel strategy's decision at one position given from Python.

The kernel normally decides inside `deals.play_deal`; this module loads a position (one
player's view plus whatever the other hands and the stock hold) into a workspace and asks
the seat's jitted strategy for its move, or lists the legal moves. The tests use it to hold
each jitted strategy to its plain-Python form position by position, the kernel's legal moves
to the reference's (§6 builds on the table included), and to show that a strategy's choice
does not change when the cards it cannot see are dealt differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simcasino.core.limits import refusals
from simcasino.core.protocol import Move, View
from simcasino.core.table import Build, is_build, item_cards
from simcasino.engine import layout
from simcasino.engine.builds import build_slot, build_value
from simcasino.loop.batch import seat_arrays
from simcasino.loop.entry import NO_DATA, NO_OUT, flags, prepare, run
from simcasino.loop.questions import (
    ASK_DECIDE,
    ASK_NEXT,
    ASK_NOTE,
    ASK_PLAYOUTS,
    ASK_TAKE,
    QUESTION_TIER,
)
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import PLAIN, SEARCHED, TIER_NAMES, StrategySpec, tier_of
from simcasino.strategies.search import (
    POINT,
    SEARCH_CANDIDATES,
    SEARCH_EXACT,
    SEARCH_SQUARES,
    SEARCH_TOTAL,
    SEARCH_WORLDS,
    value,
)


@dataclass(frozen=True)
class DealHistory:
    """The parts of a deal's past that a view does not show but scoring needs."""

    dealer: int
    last_capturer: int
    sweeps: tuple[int, ...]
    scored_sweeps: tuple[int, ...]
    immediate: tuple[int, ...]  # points scored at capture this deal (Finnish)


@dataclass(frozen=True)
class SeenTurn:
    """Another player's turn earlier in this round as the deciding player saw it: whether it
    captured and the loose cards it faced. The search's belief reads these
    (`strategies.search.belief`)."""

    seat: int
    captured: bool
    table: tuple[int, ...]


@dataclass(frozen=True)
class Loaded:
    """A position loaded into a workspace, and the tier it was loaded for (what the strategies
    it holds and the questions it may be asked need compiled: `entry.flags`)."""

    workspace: np.ndarray
    tier: int


def _ask(loaded: Loaded, question: int, seat: int, a: int, b: int, data: np.ndarray) -> int:
    """`entry.run`'s answer to ``question``, with the kernel's refusals of a position raised
    as `PositionTooLarge`."""
    if QUESTION_TIER[question] > loaded.tier:
        raise ValueError(
            f"question {question} needs the {TIER_NAMES[QUESTION_TIER[question]]} tier; the "
            f"position was loaded for the {TIER_NAMES[loaded.tier]} one (`_load`'s ``need``)"
        )
    with refusals():
        return int(
            run(
                loaded.workspace,
                *flags(loaded.tier),
                np.int64(question),
                np.int64(seat),
                np.int64(a),
                np.int64(b),
                np.uint64(0),
                data,
                NO_OUT,
            )
        )


def _decide(loaded: Loaded, seat: int) -> tuple[int, int]:
    slot = _ask(loaded, ASK_DECIDE, seat, 0, 0, NO_DATA)
    return int(slot), int(loaded.workspace[layout.CHOSEN_MASK])


def _take(loaded: Loaded, seat: int, slot: int, mask: int) -> None:
    _ask(loaded, ASK_TAKE, seat, slot, mask, NO_DATA)


def _next(loaded: Loaded) -> int:
    return int(_ask(loaded, ASK_NEXT, 0, 0, 0, NO_DATA))


def as_move(view: View, slot: int, code: int) -> Move:
    """A kernel move (hand slot; capture mask, 0 to trail, or negative build code) as a `Move`."""
    card = view.hand[slot]
    if code > 0:
        return Move.capture(slot, card, code)
    if code < 0:
        return Move.build(slot, card, int(build_slot(code)), int(build_value(code)))
    return Move.trail(slot, card)


def listed_moves(view: View, workspace: np.ndarray, count: int) -> list[Move]:
    """The first ``count`` moves the kernel listed in ``workspace`` (MOVE_SLOT, MOVE_MASK) as
    `Move`s."""
    slots = workspace[layout.MOVE_SLOT : layout.MOVE_SLOT + count]
    masks = workspace[layout.MOVE_MASK : layout.MOVE_MASK + count]
    return [as_move(view, int(s), int(m)) for s, m in zip(slots, masks)]


def playout_margins(
    view: View,
    spec: StrategySpec,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    history: DealHistory | None,
    worlds: int,
    rng: int,
) -> tuple[tuple[Move, ...], np.ndarray]:
    """Every legal move of ``view`` played out by the search ``spec``'s playouts in the same
    ``worlds`` uniform worlds, drawn from the stream ``rng``: the moves and a (worlds, moves)
    array of margins in points. Why not `search_values`: a paired comparison of any two moves
    needs their values world by world, not only each move's sums."""
    loaded = _load(view, spec, hands, stock, history, rng=rng, need=SEARCHED)
    out = np.zeros(worlds * layout.MOVE_CAP, dtype=np.int64)
    count = _ask(loaded, ASK_PLAYOUTS, view.seat, worlds, 0, out)
    workspace = loaded.workspace
    moves = tuple(listed_moves(view, workspace, count))
    return moves, out[: worlds * count].reshape(worlds, count) / POINT


def kernel_move(
    view: View,
    spec: StrategySpec,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    history: DealHistory | None = None,
) -> Move:
    """The move ``spec``'s jitted form makes in ``view``; ``hands[s]`` is seat s's hand (the
    viewer's own is taken from the view), ``stock`` the undealt cards in dealing order, and
    ``history`` what the view leaves out but the rest of the deal's scoring needs."""
    return _decision(view, spec, hands, stock, history)[0]


def search_values(
    view: View,
    spec: StrategySpec,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    history: DealHistory | None = None,
) -> dict[Move, tuple[float, float]]:
    """The search's view of each move it tried (its candidates): the mean margin in points
    over its worlds and the standard error of that mean (0 when solved exactly)."""
    return _values_in(view, _decision(view, spec, hands, stock, history)[1].workspace)


def _values_in(view: View, workspace: np.ndarray) -> dict[Move, tuple[float, float]]:
    """`search_values` as the search's decision left them in ``workspace``."""
    count = int(
        workspace[SEARCH_CANDIDATES]
    )  # every move when solved; more than ``moves`` where it widened
    moves = listed_moves(view, workspace, count)
    totals = workspace[SEARCH_TOTAL : SEARCH_TOTAL + count].astype(float)
    if workspace[SEARCH_EXACT]:
        return {move: (float(total), 0.0) for move, total in zip(moves, totals)}
    worlds = int(
        workspace[SEARCH_WORLDS]
    )  # a close decision takes more than ``worlds`` (max_worlds)
    totals, squares = totals / POINT, workspace[SEARCH_SQUARES : SEARCH_SQUARES + count] / POINT**2
    means = totals / worlds
    spread = np.maximum(squares / worlds - means**2, 0) * worlds / max(worlds - 1, 1)
    return {
        move: (float(m), float(np.sqrt(v / worlds))) for move, m, v in zip(moves, means, spread)
    }


def table_move(
    view: View,
    seats: Sequence[StrategySpec],
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    turns: Sequence[SeenTurn],
    history: DealHistory | None = None,
    rng: int = 0,
    values: bool = False,
) -> tuple[Move, int, dict[Move, tuple[float, float]]]:
    """The move ``seats[view.seat]`` makes at a table of ``seats`` (what the search's playouts
    and §6 Misère picks read of the others) after noting ``turns``, with the deal's random
    stream at ``rng`` (what the kernel's random and the search draw from, as in the kernel's
    own play loop); the stream's state after the decision; and, asked for ``values`` and for a
    searching seat, the values its search gave the moves it tried in that decision
    (`search_values`; else none: a seat that only plays need not read them)."""
    loaded = _load(view, seats[view.seat], hands, stock, history, seats, rng)
    if loaded.tier >= SEARCHED:  # only the search's belief reads the turns noted
        _with_turns(loaded, view.seat, turns)
    slot, mask = _decide(loaded, view.seat)
    workspace = loaded.workspace
    return (
        as_move(view, int(slot), int(mask)),
        int(workspace[layout.RNG : layout.RNG + 1].view(np.uint64)[0]),
        _values_in(view, workspace) if values and loaded.tier >= SEARCHED else {},
    )


def _with_turns(loaded: Loaded, seat: int, turns: Sequence[SeenTurn]) -> None:
    for turn in turns:
        _ask(
            loaded,
            ASK_NOTE,
            seat,
            turn.seat,
            int(turn.captured),
            np.array(turn.table, dtype=np.int64),
        )


def _decision(
    view: View,
    spec: StrategySpec,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    history: DealHistory | None,
) -> tuple[Move, Loaded]:
    loaded = _load(view, spec, hands, stock, history)
    slot, mask = _decide(loaded, view.seat)
    return as_move(view, int(slot), int(mask)), loaded


def _load(
    view: View,
    spec: StrategySpec,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int],
    history: DealHistory | None,
    seats: Sequence[StrategySpec] = (),
    rng: int = 0,
    need: int = PLAIN,
) -> Loaded:
    """A workspace holding the position: hands, table (builds too), stock, piles, scores, and
    the random stream; every seat plays ``spec`` unless ``seats`` says otherwise. Loaded for
    the tier its seats need, or ``need`` if higher (the questions it will be asked)."""
    n = view.rules.players
    history = history or DealHistory(
        dealer=n - 1, last_capturer=-1, sweeps=(0,) * n, scored_sweeps=(0,) * n, immediate=(0,) * n
    )
    table = list(seats) or [spec] * n
    tier = max(tier_of(table), need)
    prepare(tier)  # compiled or loaded once, under the lock other processes wait on
    workspace = make_workspace(view.rules.to_array(), *seat_arrays(table), flags(tier)[0])
    value.load_into(workspace, view.rules)
    workspace[layout.RNG : layout.RNG + 1] = np.array([rng], dtype=np.uint64).view(np.int64)
    for seat in range(n):
        hand = view.hand if seat == view.seat else hands[seat]
        workspace[
            layout.HAND + seat * layout.HAND_CAP : layout.HAND + seat * layout.HAND_CAP + len(hand)
        ] = hand
        workspace[layout.HAND_N + seat] = len(hand)
        workspace[layout.GAME_SCORE + seat] = view.scores[seat] - history.immediate[seat]
        workspace[layout.IMMEDIATE + seat] = history.immediate[seat]
        workspace[layout.SWEEPS + seat] = history.sweeps[seat]
        workspace[layout.SCORED_SWEEPS + seat] = history.scored_sweeps[seat]
    first = workspace[layout.DECK_N] - len(stock)
    workspace[layout.DECK + first : layout.DECK + workspace[layout.DECK_N]] = stock
    workspace[layout.NEXT_CARD] = first
    workspace[layout.LAST_ROUND] = view.last_round
    workspace[layout.DEALER], workspace[layout.LAST_CAPTURER] = (
        history.dealer,
        history.last_capturer,
    )
    # after this one, in this round
    workspace[layout.TURNS_LEFT] = sum(workspace[layout.HAND_N : layout.HAND_N + n]) - 1
    workspace[layout.TO_PLAY] = (view.seat + 1) % n
    workspace[layout.OWNER : layout.OWNER + len(view.captured_by)] = view.captured_by
    _load_table(workspace, view.table)
    captured = [card for card, owner in enumerate(view.captured_by) if owner >= 0]
    on_table = [c for item in view.table for c in item_cards(item)]
    for card in [*on_table, *(card for _, card in view.played), *captured]:
        workspace[layout.SEEN + card] = 1  # what every player has seen
    return Loaded(workspace, tier)


def _load_table(workspace: np.ndarray, table: Sequence[int | Build]) -> None:
    """The table's items into their slots: a card as its id, the b-th build as DECK_CAP + b
    with its BUILD_* entries and its cards marked in OWNER (§6)."""
    builds = 0
    for slot, item in enumerate(table):
        if not is_build(item):
            workspace[layout.TABLE + slot] = item
            continue
        b, builds = builds, builds + 1
        workspace[layout.TABLE + slot] = layout.DECK_CAP + b
        workspace[layout.BUILD_VALUE + b], workspace[layout.BUILD_OWNER + b] = (
            item.value,
            item.owner,
        )
        workspace[layout.BUILD_DOUBLE + b], workspace[layout.BUILD_N + b] = (
            item.double,
            len(item.cards),
        )
        workspace[layout.BUILD_KEY + b] = sum(
            int(workspace[layout.CARD_KEY + c]) for c in item.cards
        )
        workspace[layout.BUILD_POINTS + b] = sum(
            int(workspace[layout.CARD_POINTS + c]) for c in item.cards
        )
        workspace[layout.OWNER + np.array(item.cards)] = -2 - b
    workspace[layout.TABLE_N] = len(table)
