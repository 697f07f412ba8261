"""What the others' moves say of the cards they hold, under a model of their play: the search's
inference (``search:infer=T``).

The belief (`belief`) counts one kind of evidence: a trail on a table some card could have
captured from. Every move says more. The model here: a seat chooses its move by a softmax of
the heuristic's move values at temperature T (points), so the chance of the move it made
falls with every card it held whose best move was worth more. Over a whole hand that chance
is e^(u_o/T) / Σ over the hand's moves of e^(u/T), which does not split card by card; its
pairwise form does: the move made (value u_o) must beat the best move of each other card c
in hand (value u_c) in a contest of its own,

    P(move | hand H) = ∏ over the cards c of H of 1 / (1 + e^((u_c − u_o) / T)),

so each card gets a weight, the product over the noted turns of its factor, and the exact
draw of a hand by per-card weights (`belief._draw_hand`) deals the worlds by it: a seat that
passed up a capture, or took a poor one, probably held no card that did much better; a card
whose best move was far worse than the move made costs nothing.

The values: at the turn's moment, in the second block: the table it faced, its hand the card
it played and the card weighed (two cards: terms that read the rest of the hand, §7 F3 and §6
builds, read only these), the cards seen as now but the one it played (the rest of the round
was not played yet). So a turn is weighed once, when `belief._replay` notes it, and only where
the card played is known: at the kernel's table (a turn noted from Python names no card, and
§6 builds are not weighed). Only public facts and the deciding seat's hand are read.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.engine import layout
from simcasino.engine.captures import find_groups, hand_need, table_reach
from simcasino.engine.dealing import count_hidden
from simcasino.engine.layout import WsPointer, hand_at
from simcasino.engine.memory import Area
from simcasino.engine.moves import list_moves
from simcasino.strategies import heuristic
from simcasino.strategies.heuristic.regions import MOVE_VALUE

LOG_UNIT = 1 << 20  # log-likelihoods kept in the workspace as integers of this many units
_MICRO = 1e-6  # the heuristic's values are in micro-points
_area = Area("inference")
# per observing seat, other seat and card: the log-likelihood (LOG_UNIT units) of the other
# seat's noted moves this round had it held the card
LIKELIHOOD = _area.region(layout.MAX_PLAYERS * layout.MAX_PLAYERS * layout.DECK_CAP)


@kernel(inline="always")
def likelihood_at(observer: np.int64, seat: np.int64) -> np.int64:
    """Where the log-likelihoods of ``seat``'s cards, as ``observer`` inferred them, start."""
    return LIKELIHOOD + (observer * layout.MAX_PLAYERS + seat) * layout.DECK_CAP


@kernel
def forget(ws: WsPointer, observer: np.int64) -> None:
    """A new round: what ``observer`` inferred of the others' hands no longer holds."""
    for k in range(layout.MAX_PLAYERS * layout.DECK_CAP):
        ws[likelihood_at(observer, np.int64(0)) + k] = 0


@kernel
def inferred(ws: WsPointer, observer: np.int64) -> bool:
    """Has ``observer`` inferred anything this round?"""
    for k in range(layout.MAX_PLAYERS * layout.DECK_CAP):
        if ws[likelihood_at(observer, np.int64(0)) + k]:
            return True
    return False


@kernel
def weight(ws: WsPointer, observer: np.int64, seat: np.int64, card: np.int64) -> np.float64:
    """The weight of ``card`` in the hand of ``seat``: the likelihood of its noted moves."""
    log = ws[likelihood_at(observer, seat) + card]
    return 1.0 if log == 0 else np.exp(log / LOG_UNIT)


@kernel
def weigh_turn(
    ws: WsPointer,
    sim: WsPointer,
    observer: np.int64,
    seat: np.int64,
    table: np.ndarray,
    n: np.int64,
    played: np.int64,
    captured: bool,
    temper: np.float64,
    hidden: np.ndarray,
    hidden_n: np.int64,
) -> None:
    """Add to LIKELIHOOD the log of each card's factor for one noted turn of ``seat`` (it
    played ``played`` on the ``n`` table cards of ``table``, capturing or not): the module
    docstring's pairwise softmax at temperature ``temper``, for the ``hidden_n`` cards of
    ``hidden`` (those ``observer`` cannot see now: `belief.hidden_cards`). ``sim``'s
    heuristic must be prepared for ``seat`` (`search.playout_weights`)."""
    _at_the_turn(ws, sim, seat, table, n, played)
    at = likelihood_at(observer, seat)
    for k in range(hidden_n):
        card = hidden[k]
        sim[hand_at(seat) + 1] = card
        sim[layout.HAND_NEED + seat] = hand_need(sim, seat)
        find_groups(sim, seat)
        count = heuristic.rank_moves(sim, seat, list_moves(sim, seat), np.int64(layout.MOVE_CAP))
        made, other, found = np.int64(0), np.int64(0), 0
        for m in range(count):  # best first: the first of each kind is its best
            slot, takes = sim[layout.MOVE_SLOT + m], sim[layout.MOVE_MASK + m] != 0
            if slot == 0 and takes == captured and not found & 1:
                made, found = sim[MOVE_VALUE + m], found | 1
            elif slot == 1 and not found & 2:
                other, found = sim[MOVE_VALUE + m], found | 2
        if found == 3:
            ws[at + card] -= round(np.log1p(np.exp((other - made) * _MICRO / temper)) * LOG_UNIT)


@kernel
def _at_the_turn(
    ws: WsPointer, sim: WsPointer, seat: np.int64, table: np.ndarray, n: np.int64, played: np.int64
) -> None:
    """The deal in ``sim`` as ``seat`` faced it, as far as the module docstring's model needs:
    the table then, the card it played unseen again and in its hand (slot 0, slot 1 for the
    card weighed)."""
    for k in range(layout.DECK, layout.STATE_END):
        sim[k] = ws[k]
    for i in range(n):
        sim[layout.TABLE + i] = table[i]
    sim[layout.TABLE_N] = n
    sim[layout.REACH] = table_reach(sim)
    if sim[layout.SEEN + played]:
        sim[layout.SEEN + played] = 0
        count_hidden(sim, played, np.int64(1))
    sim[layout.HAND_N + seat] = 2
    sim[hand_at(seat)] = played
