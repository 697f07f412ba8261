"""A kernel strategy's decision at one position given from Python.

The kernel normally decides inside `deal.play_deal`; this entry loads a position (one
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

from simcasino.core.jit import kernel
from simcasino.core.limits import refusals
from simcasino.core.protocol import Move, View
from simcasino.core.rng import stream_start
from simcasino.core.table import Build, is_build, item_cards
from simcasino.engine.builds import build_bits, build_slot, build_value
from simcasino.engine.captures import find_groups, grow_reach, hand_need, table_reach
from simcasino.engine.dealing import count_hidden, next_turn
from simcasino.engine.layout import (
    BUILD_BITS,
    BUILD_DOUBLE,
    BUILD_KEY,
    BUILD_N,
    BUILD_OWNER,
    BUILD_POINTS,
    BUILD_VALUE,
    CARD_KEY,
    CARD_POINTS,
    CHOSEN_MASK,
    DEALER,
    DECK,
    DECK_CAP,
    DECK_N,
    GAME_SCORE,
    HAND,
    HAND_CAP,
    HAND_N,
    HAND_NEED,
    IMMEDIATE,
    LAST_CAPTURER,
    LAST_ROUND,
    MOVE_CAP,
    MOVE_MASK,
    MOVE_SLOT,
    NEXT_CARD,
    OWNER,
    R_PLAYERS,
    REACH,
    RNG,
    SCORED_SWEEPS,
    SEEN,
    SWEEPS,
    TABLE,
    TABLE_N,
    TO_PLAY,
    TURNS_LEFT,
    WsPointer,
    workspace_pointer,
)
from simcasino.engine.moves import list_moves
from simcasino.engine.playing import take_turn
from simcasino.loop.batch import seat_arrays
from simcasino.loop.dispatch import choose_every
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import StrategySpec, belief, heuristic, search
from simcasino.strategies.belief import EVIDENCE
from simcasino.strategies.claims import LABELS, label_moves
from simcasino.strategies.heuristic.regions import TERMS, TERMS_FIXED
from simcasino.strategies.heuristic.survey import start_decision
from simcasino.strategies.memory import playout_block
from simcasino.strategies.search import SEARCH_EXACT, SEARCH_SQUARES, SEARCH_TOTAL, SEARCH_WORLDS


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
    captured and the loose cards it faced. The search's belief reads these (`strategies.belief`)."""

    seat: int
    captured: bool
    table: tuple[int, ...]


# The questions `_answer` answers. Why one compiled entry for all of them: each function called
# from Python is compiled with everything it calls linked in and optimized again, so ten
# entries cost ten optimizations of the strategies (measured: most of a cold `analyze`).
(ASK_DECIDE, ASK_MOVES, ASK_TERMS, ASK_RANKING, ASK_NOTE, ASK_EVIDENCE, ASK_WORLD, ASK_TAKE, ASK_NEXT, ASK_LABELS,
 ASK_PLAYOUTS) = range(11)


def _ask(workspace: np.ndarray, question: int, seat: int, a: int, b: int, data: np.ndarray) -> int:
    """`_answer`, with the kernel's refusals of a position raised as `PositionTooLarge`."""
    with refusals():
        return int(_answer(workspace, question, seat, a, b, data))


@kernel
def _answer(workspace: np.ndarray, question: np.int64, seat: np.int64, a: np.int64, b: np.int64,
            data: np.ndarray) -> np.int64:
    """Answer ``question`` about the position loaded in ``workspace`` for ``seat``:

    - ASK_DECIDE: its strategy's hand slot (the capture mask in CHOSEN_MASK);
    - ASK_MOVES: how many legal moves (MOVE_SLOT, MOVE_MASK);
    - ASK_TERMS: the heuristic's terms of playing slot ``a`` as code ``b`` (copied to ``data``);
    - ASK_RANKING: how many moves the heuristic ranked (MOVE_SLOT, MOVE_MASK, MOVE_VALUE);
    - ASK_NOTE: seat ``a`` 's turn noted by ``seat``'s belief: captured if ``b``, facing the
      loose cards in ``data``;
    - ASK_EVIDENCE: the belief's evidence, per seat and card (copied to ``data``);
    - ASK_WORLD: world ``a`` of the belief (``b``: its certainty in thousandths), dealt into the
      second block;
    - ASK_TAKE: ``seat`` plays slot ``a`` taking ``b``;  ASK_NEXT: the seat to play next;
    - ASK_LABELS: how many legal moves, each labelled against claim code ``a`` (`claims`,
      copied to ``data``);
    - ASK_PLAYOUTS: how many legal moves, each played out in ``a`` uniform worlds by the
      search's playouts (`search.playouts`: margins into ``data``, world by world).

    Every question but ASK_NOTE, ASK_WORLD, ASK_TAKE and ASK_NEXT first works out what a
    loaded position derives (`_settle`), once per question."""
    ws = workspace_pointer(workspace)
    if question == ASK_NOTE:
        reach = np.int64(1)
        for card in data:
            reach = grow_reach(ws, reach, card)
        belief.note_turn(ws, seat, a, b != 0, reach & ~np.int64(1))
        return 0
    if question == ASK_WORLD:
        sim = playout_block(ws)
        search.copy_deal(ws, sim)
        belief.deal_hidden(ws, sim, seat, stream_start(np.uint64(ws[RNG]), a, seat), 1.0 - b / 1000.0)
        return 0
    if question == ASK_TAKE:
        find_groups(ws, seat)
        take_turn(ws, seat, a, b)
        return 0
    if question == ASK_NEXT:
        return next_turn(ws)
    _settle(ws, seat)
    if question == ASK_DECIDE:
        return choose_every(ws, seat)
    if question == ASK_MOVES:
        return list_moves(ws, seat)
    if question == ASK_TERMS:
        start_decision(ws, seat)
        heuristic.move_terms(ws, seat, a, b)
        data[:] = workspace[TERMS : TERMS_FIXED + 1]
        return 0
    if question == ASK_RANKING:
        return heuristic.rank_moves(ws, seat, list_moves(ws, seat), np.int64(MOVE_CAP))
    if question == ASK_LABELS:
        count = list_moves(ws, seat)
        label_moves(ws, a, seat, count)
        data[:count] = workspace[LABELS : LABELS + count]
        return count
    if question == ASK_PLAYOUTS:
        count = list_moves(ws, seat)
        search.playouts(ws, seat, count, a, data)
        return count
    belief.weigh(ws, seat)  # ASK_EVIDENCE
    data[:] = workspace[EVIDENCE : EVIDENCE + data.shape[0]]
    return 0


@kernel
def _settle(ws: WsPointer, seat: np.int64) -> None:
    """The derived state of a loaded position, and ``seat``'s groups listed."""
    for card in range(ws[DECK_N]):
        count_hidden(ws, card, -ws[SEEN + card])  # the workspace starts with every card hidden
    ws[REACH] = table_reach(ws)
    ws[BUILD_BITS] = build_bits(ws)
    for other in range(ws[R_PLAYERS]):
        ws[HAND_NEED + other] = hand_need(ws, other)
    find_groups(ws, seat)


_NO_DATA = np.zeros(0, dtype=np.int64)


def _decide(workspace: np.ndarray, seat: int) -> tuple[int, int]:
    slot = _ask(workspace, ASK_DECIDE, seat, 0, 0, _NO_DATA)
    return int(slot), int(workspace[CHOSEN_MASK])


def _take(workspace: np.ndarray, seat: int, slot: int, mask: int) -> None:
    _ask(workspace, ASK_TAKE, seat, slot, mask, _NO_DATA)


def _next(workspace: np.ndarray) -> int:
    return int(_ask(workspace, ASK_NEXT, 0, 0, 0, _NO_DATA))


def as_move(view: View, slot: int, code: int) -> Move:
    """A kernel move (hand slot; capture mask, 0 to trail, or negative build code) as a `Move`."""
    card = view.hand[slot]
    if code > 0:
        return Move.capture(slot, card, code)
    if code < 0:
        return Move.build(slot, card, int(build_slot(code)), int(build_value(code)))
    return Move.trail(slot, card)


def playout_margins(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                    history: DealHistory | None, worlds: int, rng: int) -> tuple[tuple[Move, ...], np.ndarray]:
    """Every legal move of ``view`` played out by the search ``spec``'s playouts in the same
    ``worlds`` uniform worlds, drawn from the stream ``rng``: the moves and a (worlds, moves)
    array of margins in points. Why not `search_values`: a paired comparison of any two moves
    needs their values world by world, not only each move's sums."""
    workspace = _load(view, spec, hands, stock, history, rng=rng)
    out = np.zeros(worlds * MOVE_CAP, dtype=np.int64)
    count = int(_ask(workspace, ASK_PLAYOUTS, view.seat, np.int64(worlds), np.int64(0), out))
    moves = tuple(as_move(view, int(s), int(m)) for s, m in
                  zip(workspace[MOVE_SLOT : MOVE_SLOT + count], workspace[MOVE_MASK : MOVE_MASK + count]))
    return moves, out[: worlds * count].reshape(worlds, count).astype(float)


def kernel_move(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                history: DealHistory | None = None) -> Move:
    """The move ``spec``'s jitted form makes in ``view``; ``hands[s]`` is seat s's hand (the
    viewer's own is taken from the view), ``stock`` the undealt cards in dealing order, and
    ``history`` what the view leaves out but the rest of the deal's scoring needs."""
    return _decision(view, spec, hands, stock, history)[0]


def search_values(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                  history: DealHistory | None = None) -> dict[Move, tuple[float, float]]:
    """The search's view of each move it tried (its candidates): the mean margin in points
    over its worlds and the standard error of that mean (0 when solved exactly)."""
    workspace = _decision(view, spec, hands, stock, history)[1]
    kept = int(spec.params.get("moves", search.PARAMS["moves"][0]))
    count = len(view.moves) if workspace[SEARCH_EXACT] else min(len(view.moves), kept)
    moves = [as_move(view, int(s), int(m)) for s, m in
             zip(workspace[MOVE_SLOT : MOVE_SLOT + count], workspace[MOVE_MASK : MOVE_MASK + count])]
    totals = workspace[SEARCH_TOTAL : SEARCH_TOTAL + count].astype(float)
    if workspace[SEARCH_EXACT]:
        return {move: (float(total), 0.0) for move, total in zip(moves, totals)}
    worlds = int(workspace[SEARCH_WORLDS])  # a close decision takes more than ``worlds`` (max_worlds)
    squares = workspace[SEARCH_SQUARES : SEARCH_SQUARES + count].astype(float)
    means = totals / worlds
    spread = np.maximum(squares / worlds - means**2, 0) * worlds / max(worlds - 1, 1)
    return {move: (float(m), float(np.sqrt(v / worlds))) for move, m, v in zip(moves, means, spread)}


def table_move(view: View, seats: Sequence[StrategySpec], hands: Sequence[Sequence[int]], stock: Sequence[int],
               turns: Sequence[SeenTurn], history: DealHistory | None = None, rng: int = 0) -> tuple[Move, int]:
    """The move ``seats[view.seat]`` makes at a table of ``seats`` (what the search's playouts
    and §6 Misère picks read of the others) after noting ``turns``, with the deal's random
    stream at ``rng`` (what the kernel's random and the search draw from, as in the kernel's
    own play loop); and the stream's state after the decision."""
    workspace = _load(view, seats[view.seat], hands, stock, history, seats, rng)
    _with_turns(workspace, view.seat, turns)
    slot, mask = _decide(workspace, view.seat)
    return as_move(view, int(slot), int(mask)), int(workspace[RNG : RNG + 1].view(np.uint64)[0])


def _with_turns(workspace: np.ndarray, seat: int, turns: Sequence[SeenTurn]) -> None:
    for turn in turns:
        _ask(workspace, ASK_NOTE, seat, turn.seat, int(turn.captured), np.array(turn.table, dtype=np.int64))


def _decision(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
              history: DealHistory | None) -> tuple[Move, np.ndarray]:
    workspace = _load(view, spec, hands, stock, history)
    slot, mask = _decide(workspace, view.seat)
    return as_move(view, int(slot), int(mask)), workspace


def _load(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
          history: DealHistory | None, seats: Sequence[StrategySpec] = (), rng: int = 0) -> np.ndarray:
    """A workspace holding the position: hands, table (builds too), stock, piles, scores, and
    the random stream; every seat plays ``spec`` unless ``seats`` says otherwise."""
    n = view.rules.players
    history = history or DealHistory(dealer=n - 1, last_capturer=-1, sweeps=(0,) * n, scored_sweeps=(0,) * n,
                                     immediate=(0,) * n)
    workspace = make_workspace(view.rules.to_array(), *seat_arrays(list(seats) or [spec] * n), True)
    workspace[RNG : RNG + 1] = np.array([rng], dtype=np.uint64).view(np.int64)
    for seat in range(n):
        hand = view.hand if seat == view.seat else hands[seat]
        workspace[HAND + seat * HAND_CAP : HAND + seat * HAND_CAP + len(hand)] = hand
        workspace[HAND_N + seat] = len(hand)
        workspace[GAME_SCORE + seat] = view.scores[seat] - history.immediate[seat]
        workspace[IMMEDIATE + seat] = history.immediate[seat]
        workspace[SWEEPS + seat] = history.sweeps[seat]
        workspace[SCORED_SWEEPS + seat] = history.scored_sweeps[seat]
    first = workspace[DECK_N] - len(stock)
    workspace[DECK + first : DECK + workspace[DECK_N]] = stock
    workspace[NEXT_CARD] = first
    workspace[LAST_ROUND] = view.last_round
    workspace[DEALER], workspace[LAST_CAPTURER] = history.dealer, history.last_capturer
    workspace[TURNS_LEFT] = sum(workspace[HAND_N : HAND_N + n]) - 1  # after this one, in this round
    workspace[TO_PLAY] = (view.seat + 1) % n
    workspace[OWNER : OWNER + len(view.captured_by)] = view.captured_by
    _load_table(workspace, view.table)
    captured = [card for card, owner in enumerate(view.captured_by) if owner >= 0]
    on_table = [c for item in view.table for c in item_cards(item)]
    for card in [*on_table, *(card for _, card in view.played), *captured]:
        workspace[SEEN + card] = 1  # what every player has seen
    return workspace


def _load_table(workspace: np.ndarray, table: Sequence[int | Build]) -> None:
    """The table's items into their slots: a card as its id, the b-th build as DECK_CAP + b
    with its BUILD_* entries and its cards marked in OWNER (§6)."""
    builds = 0
    for slot, item in enumerate(table):
        if not is_build(item):
            workspace[TABLE + slot] = item
            continue
        b, builds = builds, builds + 1
        workspace[TABLE + slot] = DECK_CAP + b
        workspace[BUILD_VALUE + b], workspace[BUILD_OWNER + b] = item.value, item.owner
        workspace[BUILD_DOUBLE + b], workspace[BUILD_N + b] = item.double, len(item.cards)
        workspace[BUILD_KEY + b] = sum(int(workspace[CARD_KEY + c]) for c in item.cards)
        workspace[BUILD_POINTS + b] = sum(int(workspace[CARD_POINTS + c]) for c in item.cards)
        workspace[OWNER + np.array(item.cards)] = -2 - b
    workspace[TABLE_N] = len(table)

