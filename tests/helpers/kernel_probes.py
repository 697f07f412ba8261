"""Probes into the kernel's position API for the tests: the legal moves the kernel lists, the
heuristic's terms and values, and what the search's belief holds, at a position given from
Python. They ask `loop.position._ask` the questions only tests ask; the package's own callers
use `kernel_move`, `search_values` and `table_move` there."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simcasino.advice.claims import claim_code
from simcasino.core.protocol import Move, View
from simcasino.engine.builds import build_code
from simcasino.engine.layout import DECK_CAP, HAND, HAND_CAP, HAND_N, MOVE_CAP, TABLE, TABLE_N, hand_at
from simcasino.engine.memory import BLOCK_SIZE
from simcasino.loop.entry import NO_DATA
from simcasino.loop.position import (
    DealHistory,
    Loaded,
    SeenTurn,
    _ask,
    _decide,
    _decision,
    _load,
    _next,
    _take,
    _with_turns,
    listed_moves,
    table_move,
)
from simcasino.loop.questions import ASK_EVIDENCE, ASK_LABELS, ASK_MOVES, ASK_RANKING, ASK_TERMS, ASK_WORLD
from simcasino.strategies import SEARCHED, WEIGHED, StrategySpec, heuristic, search
from simcasino.strategies.heuristic.regions import MOVE_VALUE
from simcasino.strategies.search.belief import (
    M_TURNS,
    M_TURNS_N,
    TURN_CAPTURED,
    TURN_OFFERED,
    TURN_SEAT,
    TURN_SIZE,
    memory_at,
)
from simcasino.strategies.search.inference import LOG_UNIT, likelihood_at


def kernel_moves(view: View, hands: Sequence[Sequence[int]] = (), stock: Sequence[int] = ()) -> tuple[Move, ...]:
    """The legal moves the kernel lists for ``view``'s seat, in its canonical order."""
    loaded = _load(view, StrategySpec("random"), hands or [[]] * view.rules.players, stock, None)
    count = _ask(loaded, ASK_MOVES, view.seat, 0, 0, NO_DATA)
    return tuple(listed_moves(view, loaded.workspace, count))


def kernel_labels(view: View, claim: str, code: int | None = None) -> dict[Move, int]:
    """The kernel form of ``claim`` (an id of docs/rules.md §7; or the kernel's ``code`` given)
    on every legal move of ``view``: FOLLOWS, SILENT or BREAKS (`advice.claims`). The tests hold
    it to the plain-Python twin; what the player cannot see is all a test reads, so no hands are
    needed. (Loaded for the weighed tier, which the heuristic's tests compile anyway.)"""
    loaded = _load(view, StrategySpec("random"), [[]] * view.rules.players, [], None, need=WEIGHED)
    labels = np.zeros(MOVE_CAP, dtype=np.int64)
    count = _ask(loaded, ASK_LABELS, view.seat, np.int64(code or claim_code(claim)), np.int64(0), labels)
    return {move: int(label) for move, label in zip(listed_moves(view, loaded.workspace, count), labels)}


def kernel_code(move: Move) -> int:
    """`as_move` backwards: the kernel's mask or (§6) negative build code of a `Move`."""
    if move.is_build:
        return int(build_code(move.target, move.value))
    return move.taken


def heuristic_terms(view: View, spec: StrategySpec, move: Move, hands: Sequence[Sequence[int]],
                    stock: Sequence[int]) -> tuple[dict[str, int], int]:
    """The heuristic kernel's terms of ``move`` in ``view`` (by weight name, milli-units) and
    the points no weight scales (micro-points): what `Heuristic.terms` and `fixed` give."""
    loaded = _load(view, spec, hands, stock, None, need=WEIGHED)
    terms = np.zeros(len(heuristic.ORDER) + 1, dtype=np.int64)
    _ask(loaded, ASK_TERMS, view.seat, move.hand_index, kernel_code(move), terms)
    return dict(zip(heuristic.ORDER, map(int, terms))), int(terms[-1])


def heuristic_values(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]],
                     stock: Sequence[int]) -> dict[Move, int]:
    """The value the heuristic kernel gives each legal move in ``view`` (micro-points), as its
    choice works them out without §6 builds (cheap terms, then the costly ones) or with."""
    loaded = _load(view, spec, hands, stock, None, need=WEIGHED)
    count = _ask(loaded, ASK_RANKING, view.seat, 0, 0, NO_DATA)
    values = loaded.workspace[MOVE_VALUE : MOVE_VALUE + count]
    return {move: int(v) for move, v in zip(listed_moves(view, loaded.workspace, count), values)}


def belief_evidence(view: View, spec: StrategySpec, turns: Sequence[SeenTurn]) -> dict[int, dict[int, int]]:
    """Per other seat, the cards the belief of ``spec`` (a search) holds evidence against
    after ``turns`` (the turns each card's holder would have gone against), as {seat: {card: turns}}."""
    loaded = _load(view, spec, [[]] * view.rules.players, [], None, need=SEARCHED)
    _with_turns(loaded, view.seat, turns)
    rows = np.zeros(view.rules.players * DECK_CAP, dtype=np.int64)
    _ask(loaded, ASK_EVIDENCE, view.seat, 0, 0, rows)
    rows = rows.reshape(view.rules.players, DECK_CAP)
    return {seat: {card: int(n) for card, n in enumerate(row) if n} for seat, row in enumerate(rows)
            if seat != view.seat}


def believed_hands(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                   turns: Sequence[SeenTurn], worlds: int) -> list[list[list[int]]]:
    """The hands the belief of ``spec`` (a search) deals every seat in each of ``worlds``
    worlds after ``turns`` (the deciding seat's own hand as it is)."""
    loaded = _load(view, spec, hands, stock, None, need=SEARCHED)
    workspace = loaded.workspace
    _with_turns(loaded, view.seat, turns)
    sure = round(1000 * spec.params.get("belief", search.PARAMS["belief"][0]))
    _ask(loaded, ASK_EVIDENCE, view.seat, 0, 0, np.zeros(view.rules.players * DECK_CAP, dtype=np.int64))
    sim = workspace[BLOCK_SIZE:]  # where each world is dealt
    dealt = []
    for world in range(worlds):
        _ask(loaded, ASK_WORLD, view.seat, world, sure, NO_DATA)
        dealt.append([[int(c) for c in sim[hand_at(other) : hand_at(other) + sim[HAND_N + other]]]
                      for other in range(view.rules.players)])
    return dealt


def worlds_played(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int]) -> int:
    """How many worlds the search ``spec`` played to decide in ``view`` (0 when solved exactly)."""
    workspace = _decision(view, spec, hands, stock, None)[1].workspace
    return 0 if workspace[search.SEARCH_EXACT] else int(workspace[search.SEARCH_WORLDS])


def believed_move(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                  turns: Sequence[SeenTurn], history: DealHistory | None = None) -> Move:
    """`kernel_move` for a search that noted ``turns`` earlier in this round."""
    return table_move(view, [spec] * view.rules.players, hands, stock, turns, history)[0]


def noted_turns(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                replies: Sequence[tuple[int, tuple[int, ...]]], history: DealHistory | None = None,
                rng: int = 0) -> list[tuple[int, bool, int]]:
    """What the belief of ``spec`` (a search in ``view``'s seat) notes at its next turn: it
    decides (the deal's random stream at ``rng``) and plays its move, the others then play
    ``replies`` in turn (each the card played and the table cards it takes), and it decides
    again. Each noted turn: the seat, whether it captured, and the values the table it faced
    offered (bit v: value v)."""
    loaded = _after_rounds(view, spec, hands, stock, [replies], history, rng)[0]
    workspace = loaded.workspace
    memory = memory_at(view.seat)
    turns = workspace[memory + M_TURNS : memory + M_TURNS + workspace[memory + M_TURNS_N] * TURN_SIZE]
    return [(int(t[TURN_SEAT]), bool(t[TURN_CAPTURED]), int(t[TURN_OFFERED])) for t in turns.reshape(-1, TURN_SIZE)]


def inferred(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
             rounds: Sequence[Sequence[tuple[int, tuple[int, ...]]]], worlds: int = 0
             ) -> tuple[dict[int, dict[int, float]], list[list[int]], tuple[int, int], list[list[list[int]]]]:
    """The search ``spec`` in ``view``'s seat plays ``rounds``: each time it decides and plays
    its move, and the others play that round's replies (the card played and the table cards
    it takes); then it decides once more. Returns what its inference holds then (per other
    seat, each card's log-likelihood, `inference.LIKELIHOOD`, where not 0), the table each
    reply faced, its last move, and the hands of ``worlds`` worlds dealt by what it inferred
    alone (no evidence counts: ASK_WORLD with belief 0)."""
    loaded, tables, move = _after_rounds(view, spec, hands, stock, rounds, None, 0)
    workspace = loaded.workspace
    logs = {other: {card: workspace[likelihood_at(view.seat, other) + card] / LOG_UNIT
                    for card in range(DECK_CAP) if workspace[likelihood_at(view.seat, other) + card]}
            for other in range(view.rules.players) if other != view.seat}
    sim = workspace[BLOCK_SIZE:]
    dealt = []
    for world in range(worlds):
        _ask(loaded, ASK_WORLD, view.seat, world, 0, NO_DATA)
        dealt.append([[int(c) for c in sim[hand_at(other) : hand_at(other) + sim[HAND_N + other]]]
                      for other in range(view.rules.players)])
    return logs, tables, move, dealt


def _after_rounds(view: View, spec: StrategySpec, hands: Sequence[Sequence[int]], stock: Sequence[int],
                  rounds: Sequence[Sequence[tuple[int, tuple[int, ...]]]], history: DealHistory | None,
                  rng: int) -> tuple[Loaded, list[list[int]], tuple[int, int]]:
    """`inferred`'s play: the loaded position after the last decision, the tables the replies
    faced and the last decision (slot, mask)."""
    loaded = _load(view, spec, hands, stock, history, rng=rng, need=SEARCHED)
    workspace = loaded.workspace
    tables = []
    for replies in rounds:
        _take(loaded, view.seat, *_decide(loaded, view.seat))
        for card, taken in replies:
            seat = int(_next(loaded))
            hand = list(workspace[HAND + seat * HAND_CAP : HAND + seat * HAND_CAP + workspace[HAND_N + seat]])
            table = list(workspace[TABLE : TABLE + workspace[TABLE_N]])
            tables.append([int(c) for c in table])
            _take(loaded, seat, hand.index(card), sum(1 << table.index(c) for c in taken))
        if _next(loaded) != view.seat:
            raise ValueError("the replies do not lead back to the deciding seat")
    return loaded, tables, _decide(loaded, view.seat)
