"""The search's belief about the hidden hands: what the other players' turns this round say
about the cards they still hold, and sampled worlds dealt by it.

Why the model: hands are dealt only when every hand is empty (R-REDEAL), so every card a
player holds now was in its hand at each of its earlier turns this round. A player who
trailed (passed up every capture, R-OPTIONAL) on a table that a card it held could have
captured from probably held no such card; where the fewest points win (§6 Misère,
Krypkasino) a player who captured probably held no card that would have captured nothing.
So each noted turn counts, per card, whether holding that card goes against what the player
did (its EVIDENCE), and a world gives that player a hand H with probability proportional to
the product over H of ``(1 - belief) ** evidence``: a per-card likelihood, the soft form of
"it would have captured" (heuristic players seldom pass up a capture, but S4, S5 and S6 make
them do it now and then, so never a hard rule). The hands are drawn exactly from that law
(`_draw_hand`), not weighed after the fact, so every world the search plays out counts the
same and none is wasted. With three or more players the others' hands are drawn one after
the other, each from the law of its own evidence over the cards still left: the exact joint
law would also weigh each hand by what it leaves the later ones.

Where the turns come from: the search sees the deal only at its own turns. Having chosen its
move it plays it in the second block and remembers the deal as that leaves it (`remember`:
the table, every hand's and pile's size, the cards seen); at its next turn `observe` replays
what happened since: which seats played (in turn order), whether each captured (its pile
grew), and so the table each one faced: the one our move left, for the first; for later ones
as long as the table can be followed exactly (a capture removes the cards now in that
player's pile; a trail adds the next new card lying on the table, provided no trailed card
was taken since). With §6 builds only the first is noted. Only public facts and our own
hand are read, so the belief is as blind to the hidden cards as the search must be.
"""

from __future__ import annotations

import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.rng import next_below
from simcasino.engine import layout
from simcasino.engine.captures import find_groups, grow_reach, hand_need
from simcasino.engine.dealing import seat_after
from simcasino.engine.layout import WsPointer, hand_at, hand_card
from simcasino.engine.memory import Area
from simcasino.strategies.search import inference
from simcasino.strategies.turn import end_turn

HIDDEN_CAP = 104
# Its own memory (see `engine.memory`): per seat, the deal as its own last move left it (to tell, at
# its next turn, what the others did since) and the others' turns of this round it noted: each the
# seat, whether it captured, and the values the table offered it (REACH | BUILD_BITS)
TURN_SEAT, TURN_CAPTURED, TURN_OFFERED = range(3)
TURN_SIZE = 3
TURN_CAP = layout.MAX_PLAYERS * layout.HAND_CAP  # the turns of one round
M_VALID, M_NEXT_CARD, M_REACH, M_BUILDS, M_TABLE_N, M_HAND_LEFT, M_TURNS_N = range(7)
M_TABLE = 7  # the table after our move: TABLE_CAP slot ids
M_HAND_N = M_TABLE + layout.TABLE_CAP  # every seat's hand size after our move
M_PILE = M_HAND_N + layout.MAX_PLAYERS  # every seat's pile size after our move
M_HAND = M_PILE + layout.MAX_PLAYERS  # our hand after our move
M_SEEN = M_HAND + layout.HAND_CAP  # per card id: seen once our move was made
M_DECK = M_SEEN + layout.DECK_CAP  # the deal's deck (which deal it was)
M_TURNS = M_DECK + layout.DECK_CAP  # the turns noted this round, TURN_SIZE each
MEMORY_SIZE = M_TURNS + TURN_CAP * TURN_SIZE
_area = Area("belief")
MEMORY = _area.region(layout.MAX_PLAYERS * MEMORY_SIZE)
# per seat and card: turns its holding that card would not explain
EVIDENCE = _area.region(layout.MAX_PLAYERS * layout.DECK_CAP)


@kernel(inline="always")
def memory_at(seat: np.int64) -> np.int64:
    """Where the memory of ``seat`` starts (MEMORY_SIZE a seat)."""
    return MEMORY + seat * MEMORY_SIZE


@kernel(inline="always")
def evidence_at(seat: np.int64) -> np.int64:
    """Where the evidence against each card being in the hand of ``seat`` starts (DECK_CAP a
    seat)."""
    return EVIDENCE + seat * layout.DECK_CAP


_UNIT = 1.0 / (1 << 53)  # a uniform draw in [0, 1) from 53 random bits


@kernel
def note_turn(
    ws: WsPointer, observer: np.int64, seat: np.int64, captured: bool, offered: np.int64
) -> None:
    """Note a turn of ``seat`` this round as ``observer`` saw it: whether it captured, and the
    values some card could have captured on the table it faced (bit v: value v)."""
    mem = memory_at(observer)
    n = ws[mem + M_TURNS_N]
    if n < TURN_CAP:
        turn = mem + M_TURNS + n * TURN_SIZE
        ws[turn + TURN_SEAT], ws[turn + TURN_CAPTURED], ws[turn + TURN_OFFERED] = (
            seat,
            1 if captured else 0,
            offered,
        )
        ws[mem + M_TURNS_N] = n + 1


@kernel
def observe(ws: WsPointer, sim: WsPointer, seat: np.int64, temper: np.float64) -> None:
    """At the turn of ``seat``: note the others' turns since its last move (see the module
    docstring), forgetting the turns of an earlier round or deal; with ``temper`` > 0 each
    noted turn is also weighed by `inference` (in ``sim``, its heuristic prepared). A seat
    with nothing remembered (a position loaded from Python) keeps the turns it was given."""
    mem = memory_at(seat)
    if not ws[mem + M_VALID]:
        return
    ws[mem + M_VALID] = 0
    same = _same_deal(ws, seat, mem)
    if not same or ws[mem + M_HAND_LEFT] == 0:  # a new deal, or our move ended the round
        ws[mem + M_TURNS_N] = 0
        inference.forget(ws, seat)
    if same:
        _replay(ws, sim, seat, mem, temper)


@kernel
def remember(ws: WsPointer, sim: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64) -> None:
    """Play our chosen move in the second block and remember the deal as it leaves it."""
    for k in range(layout.DECK, layout.STATE_END):
        sim[k] = ws[k]
    find_groups(sim, seat)  # the next seat's pick (§6 Misère) reads this turn's captures
    sim[layout.CHOSEN_MASK] = mask
    end_turn(sim, seat, slot)
    mem = memory_at(seat)
    ws[mem + M_NEXT_CARD], ws[mem + M_REACH] = sim[layout.NEXT_CARD], sim[layout.REACH]
    ws[mem + M_BUILDS] = sim[layout.BUILD_BITS]
    ws[mem + M_TABLE_N] = sim[layout.TABLE_N]
    for i in range(sim[layout.TABLE_N]):
        ws[mem + M_TABLE + i] = sim[layout.TABLE + i]
    piles = _pile_sizes(sim)
    for other in range(layout.MAX_PLAYERS):
        ws[mem + M_HAND_N + other] = sim[layout.HAND_N + other]
        ws[mem + M_PILE + other] = piles[other]
    ws[mem + M_HAND_LEFT] = sim[layout.HAND_N + seat]
    for k in range(sim[layout.HAND_N + seat]):
        ws[mem + M_HAND + k] = hand_card(sim, seat, k)
    for card in range(sim[layout.DECK_N]):
        ws[mem + M_SEEN + card] = sim[layout.SEEN + card]
        ws[mem + M_DECK + card] = sim[layout.DECK + card]
    ws[mem + M_VALID] = 1


@kernel
def weigh(ws: WsPointer, seat: np.int64) -> bool:
    """EVIDENCE, for every other seat and every card it may hold (one ``seat`` cannot see):
    the noted turns of that seat which holding the card would go against. True if any."""
    low = ws[layout.R_LOW_WINS] != 0
    mem = memory_at(seat)
    hidden = np.empty(ws[layout.DECK_N], dtype=np.bool_)
    for card in range(ws[layout.DECK_N]):
        hidden[card] = not ws[layout.SEEN + card] and not _in_hand(ws, seat, card)
        for other in range(ws[layout.R_PLAYERS]):
            ws[evidence_at(other) + card] = 0
    found = False
    for t in range(ws[mem + M_TURNS_N]):
        turn = mem + M_TURNS + t * TURN_SIZE
        other, captured, offered = (
            ws[turn + TURN_SEAT],
            ws[turn + TURN_CAPTURED] != 0,
            ws[turn + TURN_OFFERED],
        )
        if (
            captured != low or other == seat
        ):  # a capture where the most points win says nothing of the rest
            continue
        for card in range(ws[layout.DECK_N]):
            if hidden[card] and (ws[layout.HAND_BITS + card] & offered != 0) != low:
                ws[evidence_at(other) + card] += 1
                found = True
    return found


@kernel
def hidden_cards(sim: WsPointer, seat: np.int64) -> tuple[np.ndarray, np.int64]:
    """The cards ``seat`` cannot see (neither seen nor in its hand), in card order, so that
    only the set matters, never where they lie; and how many."""
    pool = np.empty(HIDDEN_CAP, dtype=np.int64)
    count = 0
    for card in range(sim[layout.DECK_N]):
        if not sim[layout.SEEN + card] and not _in_hand(sim, seat, card):
            pool[count] = card
            count += 1
    return pool, count


@kernel
def deal_hidden(
    ws: WsPointer, sim: WsPointer, seat: np.int64, world: np.uint64, factor: np.float64
) -> None:
    """Deal what ``seat`` cannot see into the other hands of ``sim`` by the belief (each hand
    drawn by its seat's EVIDENCE in ``ws``, ``factor`` a piece) and the rest, shuffled, into
    the stock: a world consistent with everything ``seat`` knows, weighed by what it saw."""
    pool, count = hidden_cards(sim, seat)
    state = world
    for other in range(sim[layout.R_PLAYERS]):
        if other != seat:
            state = _draw_hand(ws, sim, seat, other, pool, count, factor, state)
            count -= sim[layout.HAND_N + other]
            sim[layout.HAND_NEED + other] = hand_need(sim, other)
    for i in range(count - 1, 0, -1):  # Fisher-Yates
        state, j = next_below(state, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for k in range(count):
        sim[layout.DECK + sim[layout.NEXT_CARD] + k] = pool[k]


@kernel
def _draw_hand(
    ws: WsPointer,
    sim: WsPointer,
    seat: np.int64,
    other: np.int64,
    pool: np.ndarray,
    count: np.int64,
    factor: np.float64,
    state: np.uint64,
) -> np.uint64:
    """Draw the hand of ``other`` from the first ``count`` cards of ``pool``, a set H with
    probability proportional to the product of its cards' weights (``factor`` to the power
    of their evidence, times what ``seat`` inferred of them: `inference.weight`), and move the
    cards left to the front of ``pool``. Exact: card j is taken with the chance that the
    weighted sets still open contain it, from the elementary symmetric sums of the weights
    from j on (``sums[j, r]``: of every r of them)."""
    size = sim[layout.HAND_N + other]
    weight = np.empty(count, dtype=np.float64)
    for j in range(count):
        weight[j] = factor ** ws[evidence_at(other) + pool[j]] * inference.weight(
            ws, seat, other, pool[j]
        )
    sums = np.zeros((count + 1, size + 1), dtype=np.float64)
    sums[count, 0] = 1.0
    for j in range(count - 1, -1, -1):
        sums[j, 0] = 1.0
        for r in range(1, size + 1):
            sums[j, r] = sums[j + 1, r] + weight[j] * sums[j + 1, r - 1]
    need, kept = size, 0
    for j in range(count):
        take = False
        if need:
            state, bits = next_below(state, 1 << 53)
            take = bits * _UNIT * sums[j, need] < weight[j] * sums[j + 1, need - 1]
        if take:
            sim[hand_at(other) + size - need] = pool[j]
            need -= 1
        else:
            pool[kept] = pool[j]
            kept += 1
    return state


@kernel
def _same_deal(ws: WsPointer, seat: np.int64, mem: np.int64) -> bool:
    """Is this the deal our remembered move was made in (the same deck, not dealt back), with
    our hand what it left (or a new round dealt, if it emptied the hand)?"""
    if ws[layout.NEXT_CARD] < ws[mem + M_NEXT_CARD]:
        return False
    for card in range(ws[layout.DECK_N]):
        if ws[mem + M_DECK + card] != ws[layout.DECK + card]:
            return False
    left = ws[mem + M_HAND_LEFT]
    if left == 0:
        return ws[layout.NEXT_CARD] > ws[mem + M_NEXT_CARD]
    if ws[layout.NEXT_CARD] != ws[mem + M_NEXT_CARD] or ws[layout.HAND_N + seat] != left:
        return False
    for k in range(left):
        if hand_card(ws, seat, k) != ws[mem + M_HAND + k]:
            return False
    return True


@kernel
def _replay(
    ws: WsPointer, sim: WsPointer, seat: np.int64, mem: np.int64, temper: np.float64
) -> None:
    """Note the turns of this round among those played since our move, each with the table
    it faced, for as long as the table can be followed (the module docstring); with
    ``temper`` > 0 weigh each by `inference` too, where the card played is known."""
    order = np.empty(layout.MAX_PLAYERS, dtype=np.int64)
    fresh = np.empty(layout.MAX_PLAYERS, dtype=np.bool_)
    plays = _players_since(ws, seat, mem, order, fresh)
    if plays <= 0:
        return
    piles = _pile_sizes(ws)
    trailed = np.empty(
        layout.TABLE_CAP, dtype=np.int64
    )  # the new cards lying on the table, in the order trailed
    lying = 0
    for i in range(ws[layout.TABLE_N]):
        item = ws[layout.TABLE + i]
        if item < layout.DECK_CAP and not ws[mem + M_SEEN + item]:
            trailed[lying] = item
            lying += 1
    trails = 0
    for i in range(plays):
        if piles[order[i]] == ws[mem + M_PILE + order[i]]:
            trails += 1
    follow = trails == lying and not ws[layout.R_BUILDS]
    table = np.empty(layout.TABLE_CAP + layout.MAX_PLAYERS, dtype=np.int64)
    n = ws[mem + M_TABLE_N]
    for i in range(n):
        table[i] = ws[mem + M_TABLE + i]
    offered, trail = (ws[mem + M_REACH] | ws[mem + M_BUILDS]) & ~np.int64(1), 0
    hidden, hidden_n = hidden_cards(ws, seat)
    for i in range(plays):
        other = order[i]
        captured = piles[other] > ws[mem + M_PILE + other]
        if fresh[i]:
            note_turn(ws, seat, other, captured, offered)
            played = (
                _played(ws, mem, table, n, other)
                if captured
                else (trailed[trail] if follow else -1)
            )
            if temper > 0 and played >= 0 and not ws[layout.R_BUILDS]:
                inference.weigh_turn(
                    ws, sim, seat, other, table, n, played, captured, temper, hidden, hidden_n
                )
        if not follow:
            return
        if captured:
            n = _without_taken(ws, table, n, other)
        else:
            table[n] = trailed[trail]
            n, trail = n + 1, trail + 1
        offered = _reach(ws, table, n) & ~np.int64(1)


@kernel
def _played(
    ws: WsPointer, mem: np.int64, table: np.ndarray, n: np.int64, taker: np.int64
) -> np.int64:
    """The card ``taker`` captured with, facing the ``n`` cards of ``table``: the one card new
    in its pile since our move that did not lie on that table (-1 if not exactly one)."""
    played = -1
    for card in range(ws[layout.DECK_N]):
        if ws[layout.OWNER + card] != taker or ws[mem + M_SEEN + card]:
            continue
        lay = False
        for i in range(n):
            lay = lay or table[i] == card
        if not lay:
            if played >= 0:
                return -1
            played = card
    return played


@kernel
def _players_since(
    ws: WsPointer, seat: np.int64, mem: np.int64, order: np.ndarray, fresh: np.ndarray
) -> np.int64:
    """The seats that played since our move, in turn order (``fresh``: in this round), and
    how many; -1 if that cannot be told (a hand size or a count of new cards that does not fit)."""
    n = ws[layout.R_PLAYERS]
    plays = 0
    for card in range(ws[layout.DECK_N]):
        if ws[layout.SEEN + card] and not ws[mem + M_SEEN + card]:
            plays += 1
    leader = seat_after(ws[layout.DEALER], 1, n)
    ours = _place(seat, leader, n)
    count = 0
    for i in range(1, n):
        other = seat_after(seat, i, n)
        before = ws[mem + M_HAND_N + other]
        if ws[mem + M_HAND_LEFT]:  # the same round: whoever has one card fewer played
            played, new = before - ws[layout.HAND_N + other] == 1, True
            if not played and before != ws[layout.HAND_N + other]:
                return -1
        elif _place(other, leader, n) > ours:  # the rest of the round our move ended
            played, new = before == 1, False
            if before > 1:
                return -1
        else:  # the new round, up to us
            played, new = count < plays, True
        if played:
            order[count], fresh[count] = other, new
            count += 1
    return count if count == plays else -1


@kernel
def _place(seat: np.int64, leader: np.int64, n: np.int64) -> np.int64:
    """Where ``seat`` plays in a round led by ``leader`` (0: first)."""
    return seat - leader if seat >= leader else seat - leader + n


@kernel
def _pile_sizes(ws: WsPointer) -> np.ndarray:
    piles = np.zeros(layout.MAX_PLAYERS, dtype=np.int64)
    for card in range(ws[layout.DECK_N]):
        if ws[layout.OWNER + card] >= 0:
            piles[ws[layout.OWNER + card]] += 1
    return piles


@kernel
def _without_taken(ws: WsPointer, table: np.ndarray, n: np.int64, taker: np.int64) -> np.int64:
    """The table after ``taker``'s capture: the cards now in its pile leave, the rest close up."""
    kept = 0
    for i in range(n):
        if ws[layout.OWNER + table[i]] != taker:
            table[kept] = table[i]
            kept += 1
    return kept


@kernel
def _reach(ws: WsPointer, table: np.ndarray, n: np.int64) -> np.int64:
    reach = np.int64(1)
    for i in range(n):
        reach = grow_reach(ws, reach, table[i])
    return reach


@kernel
def _in_hand(ws: WsPointer, seat: np.int64, card: np.int64) -> bool:
    for k in range(ws[layout.HAND_N + seat]):
        if hand_card(ws, seat, k) == card:
            return True
    return False


assert layout.HAND_CAP * layout.MAX_PLAYERS <= TURN_CAP
