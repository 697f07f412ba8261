"""The questions Python asks the kernel about one loaded position (`position`): a strategy's
move, the legal moves, the heuristic's terms and ranking, the claims' labels, the search's
belief, worlds and playouts, and a move played.

Answered inside the one compiled entry (`entry.run`), not by entries of their own: every
function Python calls is compiled with everything it calls linked in and optimized again, so
each entry costs an optimization of the strategies behind it (measured: most of a cold
`analyze`). Each question needs a tier of the job (`QUESTION_TIER`): the claims' questions
``advises``, the heuristic's ``weighs``, the belief's and the playouts' ``searches`` (`dispatch`); a
question above the tier compiled is refused in Python before it is asked.
"""

from __future__ import annotations

import numpy as np

from simcasino.advice.claims import LABELS, label_moves
from simcasino.core.jit import kernel
from simcasino.core.rng import stream_start
from simcasino.engine import layout
from simcasino.engine.builds import build_bits
from simcasino.engine.captures import find_groups, grow_reach, hand_need, table_reach
from simcasino.engine.dealing import count_hidden, next_turn
from simcasino.engine.layout import WsPointer, workspace_pointer
from simcasino.engine.memory import playout_block
from simcasino.engine.moves import list_moves
from simcasino.engine.playing import take_turn
from simcasino.loop.dispatch import choose, not_compiled
from simcasino.strategies import ADVISED, PLAIN, SEARCHED, WEIGHED, heuristic, search
from simcasino.strategies.heuristic.regions import TERMS, TERMS_FIXED
from simcasino.strategies.heuristic.survey import start_decision

(
    ASK_DECIDE,
    ASK_MOVES,
    ASK_TERMS,
    ASK_RANKING,
    ASK_NOTE,
    ASK_EVIDENCE,
    ASK_WORLD,
    ASK_TAKE,
    ASK_NEXT,
    ASK_LABELS,
    ASK_PLAYOUTS,
) = range(11)
QUESTION_TIER = {
    ASK_DECIDE: PLAIN,
    ASK_MOVES: PLAIN,
    ASK_TAKE: PLAIN,
    ASK_NEXT: PLAIN,
    ASK_LABELS: ADVISED,
    ASK_TERMS: WEIGHED,
    ASK_RANKING: WEIGHED,
    ASK_NOTE: SEARCHED,
    ASK_EVIDENCE: SEARCHED,
    ASK_WORLD: SEARCHED,
    ASK_PLAYOUTS: SEARCHED,
}


@kernel(inline="always")  # one call site (`entry.run`): no compile of its own
def answer(
    workspace: np.ndarray,
    advises: bool | None,
    weighs: bool | None,
    searches: bool | None,
    sees: bool | None,
    question: np.int64,
    seat: np.int64,
    a: np.int64,
    b: np.int64,
    data: np.ndarray,
) -> np.int64:
    """Answer ``question`` about the position loaded in ``workspace`` for ``seat``:

    - ASK_DECIDE: its strategy's hand slot (the capture mask in CHOSEN_MASK);
    - ASK_MOVES: how many legal moves (MOVE_SLOT, MOVE_MASK);
    - ASK_TAKE: ``seat`` plays slot ``a`` taking ``b``;  ASK_NEXT: the seat to play next;
    - ASK_TERMS: the heuristic's terms of playing slot ``a`` as code ``b`` (copied to ``data``);
    - ASK_RANKING: how many moves the heuristic ranked (MOVE_SLOT, MOVE_MASK, MOVE_VALUE);
    - ASK_LABELS: how many legal moves, each labelled against claim code ``a`` (`claims`,
      copied to ``data``);
    - ASK_NOTE: seat ``a`` 's turn noted by ``seat``'s belief: captured if ``b``, facing the
      loose cards in ``data``;
    - ASK_EVIDENCE: the belief's evidence, per seat and card (copied to ``data``);
    - ASK_WORLD: world ``a`` of the belief (``b``: its certainty in thousandths), dealt into the
      second block;
    - ASK_PLAYOUTS: how many legal moves, each played out in ``a`` uniform worlds by the
      search's playouts (`search.playouts`: margins into ``data``, world by world).

    Every question but ASK_TAKE, ASK_NEXT, ASK_NOTE and ASK_WORLD first works out what a
    loaded position derives (`settle`), once per question."""
    ws = workspace_pointer(workspace)
    if question == ASK_TAKE:
        find_groups(ws, seat)
        take_turn(ws, seat, a, b)
        return 0
    if question == ASK_NEXT:
        return next_turn(ws)
    if searches is not None:
        if question == ASK_NOTE:
            reach = np.int64(1)
            for card in data:
                reach = grow_reach(ws, reach, card)
            search.note_turn(ws, seat, a, b != 0, reach & ~np.int64(1))
            return 0
        if question == ASK_WORLD:
            sim = playout_block(ws)
            search.copy_deal(ws, sim)
            search.deal_hidden(
                ws, sim, seat, stream_start(np.uint64(ws[layout.RNG]), a, seat), 1.0 - b / 1000.0
            )
            return 0
    settle(ws, seat)
    if question == ASK_DECIDE:
        return choose(ws, seat, advises, weighs, searches, sees)
    if question == ASK_MOVES:
        return list_moves(ws, seat)
    if advises is not None and question == ASK_LABELS:
        count = list_moves(ws, seat)
        label_moves(ws, a, seat, count)
        _copy_out(ws, LABELS, data, count)
        return count
    if weighs is not None:
        if question == ASK_TERMS:
            start_decision(ws, seat)
            heuristic.move_terms(ws, seat, a, b)
            _copy_out(ws, TERMS, data, TERMS_FIXED + 1 - TERMS)
            return 0
        if question == ASK_RANKING:
            return heuristic.rank_moves(ws, seat, list_moves(ws, seat), np.int64(layout.MOVE_CAP))
        if searches is not None:
            if question == ASK_PLAYOUTS:
                count = list_moves(ws, seat)
                search.playouts(ws, seat, count, a, data)
                return count
            if question == ASK_EVIDENCE:
                search.weigh(ws, seat)
                _copy_out(ws, search.EVIDENCE, data, data.shape[0])
                return 0
    return not_compiled(question)


@kernel
def settle(ws: WsPointer, seat: np.int64) -> None:
    """The derived state of a loaded position, and ``seat``'s groups listed."""
    for card in range(ws[layout.DECK_N]):
        count_hidden(
            ws, card, -ws[layout.SEEN + card]
        )  # the workspace starts with every card hidden
    ws[layout.REACH] = table_reach(ws)
    ws[layout.BUILD_BITS] = build_bits(ws)
    for other in range(ws[layout.R_PLAYERS]):
        ws[layout.HAND_NEED + other] = hand_need(ws, other)
    find_groups(ws, seat)


@kernel(inline="always")
def _copy_out(ws: WsPointer, start: np.int64, data: np.ndarray, count: np.int64) -> None:
    """``data[:count]`` = the workspace from ``start`` (a loop: a slice's shape check compiles a
    formatted error)."""
    for k in range(count):
        data[k] = ws[start + k]
