"""`search`: determinized Monte Carlo over the heuristic.

At each decision it takes the heuristic's best ``moves`` moves and imagines ``worlds`` deals
consistent with what it has seen: the cards it cannot see (the other hands and the stock)
are dealt back out in the same sizes. In each world it plays each candidate and then the
deal on with every seat playing the heuristic (its default weights), for ``depth`` turns or
to the end (0), scoring the move by the deal's `margin` (our points against the best other
side's). Every move is tried in the same worlds, so the comparison is paired, like an
experiment's. It keeps the heuristic's choice unless another candidate beat it by more than
``confidence`` standard errors of the paired gap (measured: without that guard a few noisy
worlds pick whichever move got lucky, and the search loses to its own heuristic).

How the worlds are dealt: with ``belief`` (`belief`), by what the others' turns this round
say of their hands (a player who trailed on a table its cards could capture from probably
held none of them), or with ``infer`` by a model of their play (`inference`); with belief=0
uniformly, every arrangement of the unseen cards alike. How many worlds: ``worlds`` first,
then ``worlds`` more at a time, up to ``max_worlds``, while the verdict is in doubt (some move
did better than the heuristic's on average, but not by ``confidence`` standard errors): a
close decision gets the worlds that tell it, an easy one stops early. Both follow from a
``budget`` of playouts a decision (`_worlds_within`), a count of work, not of time, so a
decision repeats on any machine. belief=0 takes no budget and leaves ``max_worlds`` at
``worlds`` unless it is given, so ``search:belief=0`` is the search as it was before belief
and the budget, the baseline they are measured against. With ``endgame`` > 0, a world with
at most that many cards left to play is solved exactly (`exact`: a world deals every card,
so nothing in it is hidden) instead of played out, as far as a node budget allows.

The imagined deals are played in the workspace's second block (see `layout`), which a copy
of the deal's state turns into the real deal at this turn. With two players and the stock
empty nothing is hidden any more, and `exact` solves the rest of the deal instead, over
every legal move (ties go to the heuristic's favourite). Only the numba kernel plays it;
the worlds are drawn from the deal's random stream, so results repeat from the seed.
"""

from __future__ import annotations

import numpy as np

from simcasino.advice import follow
from simcasino.core.jit import kernel
from simcasino.core.rng import next_below, stream_start
from simcasino.engine import layout
from simcasino.engine.captures import find_groups, hand_need
from simcasino.engine.layout import WsPointer, hand_at, param, params_at
from simcasino.engine.memory import Area, playout_block
from simcasino.engine.moves import list_moves
from simcasino.engine.scoring import margin, score_deal
from simcasino.strategies import heuristic
from simcasino.strategies.search import belief, exact, inference, value
from simcasino.strategies.turn import end_turn, start_turn

NAME = "search"
DESCRIPTION = "determinized Monte Carlo: each move played on in sampled worlds by the heuristic"
COUNTS_CARDS = True  # reads what nobody has seen yet (deal.count_hidden)
PLAYS_BUILDS = (
    True  # §6: candidates, playouts and the exact solver go through the listed legal moves
)
# the default budget (playouts a decision) when belief is on (docs/strategies.md, "Budget"): 4,096
# beat 1,024 (max_worlds 256, the default before) by +0.40 Swedish, +0.20 Finnish points a deal
# (1,000 fresh decks each, both intervals above 0) at a median of 1.4 and 2.0 ms a decision; solved
# endgames (``endgame``) add nothing measurable once close decisions get their worlds, so they are
# off by default
BUDGET = 4096
# worlds a decision may take at most (4,194,304: a budget of some 16.8 million playouts with 4
# candidates, far past the curve in docs/strategies.md), so a typo's budget fails at once
MAX_WORLDS_CAP = 1 << 22
# a playout's margin counts sixteenths of a point: the learned value is not a whole number of
# points, and a power of two scales every sum and spread exactly, so no decision changes by it
POINT = 16
WORLDS = 32  # the first batch of worlds at least (the whole of it with belief=0)
PARAMS: dict[str, tuple[float, str]] = {
    "worlds": (
        WORLDS,
        "deals imagined per decision at first, each move tried in each (when not given: an eighth "
        "of max_worlds, 32 at least)",
    ),
    "max_worlds": (
        BUDGET // 4,
        "worlds a close decision may take, ``worlds`` more at a time while a move looks "
        "better than the heuristic's but not by ``confidence`` (when not given: budget / "
        "moves; with belief=0, ``worlds``)",
    ),
    "depth": (0, "turns each imagined deal is played on (0: to the end of the deal)"),
    "exact": (1, "1: solve the endgame exactly once nothing is hidden (2 players, stock empty)"),
    "moves": (4, "candidate moves tried: the heuristic's best few"),
    "confidence": (2.0, "standard errors by which a move must beat the heuristic's choice"),
    "belief": (
        0.9,
        "how sure the worlds are that a player who passed up a capture this round held no card "
        "that could make it, per card and turn (0: uniform worlds, and no more worlds for close "
        "decisions: the search before both)",
    ),
    "endgame": (0, "cards left at which each world is solved exactly, not played out (0: never)"),
    "infer": (
        0,
        "temperature, in points, of the model of the others' play the worlds are dealt by: each "
        "seat chooses by a softmax of the heuristic's move values, so a card whose best move beat "
        "the move it made is less likely in its hand (0: the belief's evidence counts instead; "
        "needs belief > 0)",
    ),
    "widen": (
        0,
        "candidate moves judged where the first worlds leave the verdict in doubt (some move did "
        "better than the heuristic's on average, not by ``confidence`` standard errors): the "
        "heuristic's best ``widen``, judged again from the first world on what is left of the "
        "budget (0, or at most ``moves``: never)",
    ),
    "budget": (
        BUDGET,
        "playouts a decision may take at most (candidate moves × worlds), a budget in work units, "
        "not the clock: sets max_worlds to budget / moves, and the first batch of worlds to an "
        "eighth of that, unless they are given (belief=0: none unless given; 0: none)",
    ),
    "respond": (
        2,
        "how the rest of a deal is solved where it is solved exactly (two players and the stock "
        "empty, and the endgame of a world): 0 minimax, the other seat playing its best; 1 a best "
        "response to the heuristic (the other seat plays the heuristic's move, ours every move); 2 "
        "minimax, its ties broken by the best response (never worse against a perfect player)",
    ),
    "value": (
        0,
        "where a playout ends and is scored by the learned value of that public state (`value`), "
        "where one is shipped for the table (its rules, 2 players): 1 at the end of the current "
        "round, 2 at the start of the last round; 0: every playout played to the end of the deal "
        "by the heuristic",
    ),
}
# parameter slots, one an option; the heuristic's weights follow (its playouts' weights), then
# ``infer`` and ``widen``
_WORLDS, _MAX_WORLDS, _DEPTH, _EXACT, _ENDGAME, _BELIEF, _MOVES, _CONFIDENCE, _WEIGHTS = range(9)
_INFER = _WEIGHTS + len(heuristic.ORDER)
_WIDEN = _INFER + 1
_RESPOND = _WIDEN + 1
_VALUE = _RESPOND + 1
SEES_HANDS_SLOT = (
    _VALUE + 1
)  # 1: the other hands as they are, only the stock dealt anew (`hand_seer`); no parameter
_MINIMAX, _BEST_RESPONSE, _MINIMAX_THEN_RESPONSE = 0, 1, 2  # ``respond``
SOLVE_NODES_SLOT = (
    SEES_HANDS_SLOT + 1
)  # the clairvoyant's node budget of a solve (`clairvoyant`); no parameter
assert SOLVE_NODES_SLOT < follow.FOLLOW_FIRST  # the last slots: the rules it follows
# its own memory (see `engine.memory`): per candidate move, summed over the worlds in the
# real deal's block, and the worlds themselves in the block its imagined deals are played in
_area = Area("search")
SEARCH_TOTAL = _area.region(
    layout.MOVE_CAP
)  # playout results summed per move (exact values when solved) ...
SEARCH_SQUARES = _area.region(
    layout.MOVE_CAP
)  # ... and their squares (for `analyze`'s standard errors)
SEARCH_GAP_SQUARES = _area.region(
    layout.MOVE_CAP
)  # squared gaps to the heuristic's best move, world by world
SEARCH_EXACT = _area.region(
    1
)  # 1 if the last decision was solved exactly (SEARCH_TOTAL: exact values)
SEARCH_WORLDS = _area.region(
    1
)  # the worlds the last sampled decision played (its sums are over them)
SEARCH_CANDIDATES = _area.region(
    1
)  # the moves the last decision judged (SEARCH_TOTAL's first entries)
WORLD_STATE = _area.region(
    layout.STATE_SIZE
)  # one sampled world's deal, copied back for each candidate move
ENDGAME_STATE = _area.region(
    layout.STATE_SIZE
)  # a playout's deal before its endgame is solved (restored if declined)


def kernel_params(params: dict[str, float]) -> list[int]:
    """One slot each: worlds, max_worlds, depth, exact, endgame, belief (thousandths), moves,
    confidence (thousandths), then the heuristic weights the playouts use, then infer
    (thousandths of a point), widen, respond and value."""
    moves = int(params.get("moves", PARAMS["moves"][0]))
    depth = int(params.get("depth", PARAMS["depth"][0]))
    sure = params.get("belief", PARAMS["belief"][0])
    worlds, most = _worlds_within(params, max(moves, 1), sure != 0)
    if worlds < 1 or depth < 0 or moves < 1:
        raise ValueError(
            f"search needs worlds >= 1, depth >= 0 and moves >= 1; got {worlds}, {depth}, {moves}"
        )
    endgame = int(params.get("endgame", PARAMS["endgame"][0]))
    if not 0 <= sure < 1 or not 0 <= endgame <= exact.SOLVE_PLIES:
        raise ValueError(
            f"search needs 0 <= belief < 1 and 0 <= endgame <= {exact.SOLVE_PLIES}; got {sure}, "
            f"{endgame}"
        )
    if not worlds <= most <= MAX_WORLDS_CAP:
        raise ValueError(
            f"search needs worlds <= max_worlds <= {MAX_WORLDS_CAP:,}; got {worlds}, {most}"
        )
    solves = int(params.get("exact", 1) != 0)
    confidence = round(1000 * params.get("confidence", PARAMS["confidence"][0]))
    temper = params.get("infer", 0)
    if temper < 0 or (temper and not sure):
        raise ValueError(
            "search needs infer >= 0, and belief > 0 to infer (it notes the turns); got "
            f"infer={temper}"
        )
    widen = int(params.get("widen", 0))
    if widen < 0 or widen > layout.MOVE_CAP:
        raise ValueError(f"search needs 0 <= widen <= {layout.MOVE_CAP}; got widen={widen}")
    respond = int(params.get("respond", PARAMS["respond"][0]))
    if respond not in (0, 1, 2):
        raise ValueError(
            f"search needs respond 0 (minimax), 1 (a best response to the heuristic) or 2 "
            f"(minimax, ties by the best response); got {respond}"
        )
    slots = [worlds, most, depth, solves, endgame, round(1000 * sure), moves, confidence]
    valued = int(params.get("value", PARAMS["value"][0]))
    if valued not in (0, 1, 2):
        raise ValueError(
            f"search needs value 0 (playouts to the deal's end), 1 (to the round's end, then the "
            f"learned value) or 2 (to the last round's start, then the value); got {valued}"
        )
    return slots + heuristic.kernel_params({}) + [round(1000 * temper), widen, respond, valued]


def _worlds_within(params: dict[str, float], moves: int, believing: bool) -> tuple[int, int]:
    """``worlds`` and ``max_worlds``: within a ``budget`` of playouts (with belief, 4,096 unless
    given), as many worlds at most as ``moves`` candidates can each be played out in, dealt in
    batches of an eighth of them (32 at least, as 32 of 256 before the budget), so a bigger
    budget also judges every decision on more worlds, not only the close ones; either may be
    given instead. The budget counts playouts, not milliseconds, so a decision is the same on
    any machine and under any load; docs/strategies.md gives the time it takes. Without a
    budget (belief=0, the search before both, or budget=0), ``max_worlds`` is ``worlds``
    unless given."""
    if "budget" in params and "max_worlds" in params:
        raise ValueError("search takes budget or max_worlds, not both (the budget sets max_worlds)")
    budget = int(params.get("budget", BUDGET if believing and "max_worlds" not in params else 0))
    if not budget:
        first = int(params.get("worlds", WORLDS))
        return first, int(params.get("max_worlds", first))
    if budget < 2 * moves:
        raise ValueError(
            f"search needs budget >= 2 * moves (two worlds at least); got budget={budget}, "
            f"moves={moves}"
        )
    most = budget // moves
    return min(int(params.get("worlds", max(WORLDS, most // 8))), most), most


def make(params: dict[str, float]) -> None:
    """No plain-Python form: thousands of playouts per decision need the kernel."""
    raise ValueError(
        "the search strategy has no Python form: it plays in the kernel (engine 'numba', or "
        "'mixed' beside a plain-Python seat)"
    )


@kernel(inline="always")
def endgame_cards(ws: WsPointer, seat: np.int64) -> np.int64:
    """``endgame``: the cards left at which a world is solved exactly (0: never)."""
    return param(ws, seat, _ENDGAME)


@kernel(inline="always")
def moves_kept(ws: WsPointer, seat: np.int64) -> np.int64:
    """``moves``: how many of the heuristic's best moves are tried."""
    return param(ws, seat, _MOVES)


@kernel
def choose_kernel(ws: WsPointer, seat: np.int64) -> np.int64:
    """The move with the best exact value when the solver applies, else the best summed
    playout result; its mask goes to CHOSEN_MASK. With belief, what the others did since our
    last move is noted first, and the deal as our move leaves it remembered after."""
    sim = playout_block(ws)
    playout_weights(ws, sim, seat)
    believing = param(ws, seat, _BELIEF) > 0
    temper = param(ws, seat, _INFER) / 1000.0
    if believing:
        belief.observe(ws, sim, seat, temper)
    weighed = believing and (belief.weigh(ws, seat) or temper > 0 and inference.inferred(ws, seat))
    best = _decide(ws, sim, seat, weighed)
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + best]
    if believing:
        belief.remember(ws, sim, seat, ws[layout.MOVE_SLOT + best], ws[layout.CHOSEN_MASK])
    return ws[layout.MOVE_SLOT + best]


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def _decide(ws: WsPointer, sim: WsPointer, seat: np.int64, weighed: bool) -> np.int64:
    """The index of the chosen move among the candidates; ``weighed``: deal the worlds by the
    belief's EVIDENCE."""
    keep = moves_kept(ws, seat)
    solving = param(ws, seat, _EXACT) != 0 and exact.applies(ws)
    wide = max(
        keep, param(ws, seat, _WIDEN)
    )  # ranked first, best first: the first ``keep`` are the same
    count = candidates(
        ws, sim, seat, layout.MOVE_CAP if solving else wide
    )  # the solver weighs every move
    ws[SEARCH_CANDIDATES] = count
    ws[SEARCH_EXACT] = solving and solve_moves(
        ws, sim, seat, count, np.bool_(False), np.int64(exact.NODE_BUDGET)
    )
    if ws[SEARCH_EXACT]:
        if param(ws, seat, _RESPOND) == _MINIMAX_THEN_RESPONSE:
            return _best_response_of_the_best(ws, sim, seat, count)
        return best_exact(ws, count)
    ws[SEARCH_WORLDS] = _sample_worlds(ws, sim, seat, min(count, keep), count, weighed)
    return _best_sampled(ws, seat, ws[SEARCH_CANDIDATES], ws[SEARCH_WORLDS])[0]


@kernel
def best_exact(ws: WsPointer, count: np.int64) -> np.int64:
    """The move with the highest SEARCH_TOTAL, the first (the heuristic's favourite) on ties."""
    best = 0
    for m in range(1, count):
        if ws[SEARCH_TOTAL + m] > ws[SEARCH_TOTAL + best]:
            best = m
    return best


@kernel
def _best_response_of_the_best(
    ws: WsPointer, sim: WsPointer, seat: np.int64, count: np.int64
) -> np.int64:
    """Of the moves with the best exact value (minimax), the one whose best response to the
    heuristic scores most, the first on ties (the heuristic's favourite): as good as any
    against a perfect player, and better against the player the playouts assume. A best
    response the solver declines counts as no better."""
    best = best_exact(ws, count)
    exact.respond(sim, np.bool_(True))
    exact.start_decision(sim, exact.NODE_BUDGET)
    chosen, chosen_value = best, exact.DECLINED
    for m in range(best, count):
        if ws[SEARCH_TOTAL + m] != ws[SEARCH_TOTAL + best]:
            continue
        _enter_world(ws, sim, seat, np.uint64(0))
        value = exact.value_after(sim, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m])
        if value > chosen_value:
            chosen, chosen_value = m, value
    exact.respond(sim, np.bool_(False))
    return chosen


@kernel
def _best_sampled(
    ws: WsPointer, seat: np.int64, count: np.int64, worlds: np.int64
) -> tuple[np.int64, bool]:
    """The heuristic's best move (ranked first) unless another beat it in the same ``worlds``
    by more than ``confidence`` standard errors of the paired gap: a few noisy worlds would
    otherwise pick whichever move got lucky. Also whether the verdict is in doubt: the
    heuristic's move kept though another did better on average."""
    z = param(ws, seat, _CONFIDENCE) / 1000.0
    best, best_gap, doubt = 0, 0.0, False
    if worlds < 2:  # no spread to judge a gap by
        return best, doubt
    for m in range(1, count):
        gap = (ws[SEARCH_TOTAL + m] - ws[SEARCH_TOTAL]) / worlds
        doubt = doubt or gap > 0
        if gap <= best_gap:
            continue
        spread = (
            max(ws[SEARCH_GAP_SQUARES + m] / worlds - gap * gap, 0.0) * worlds / max(worlds - 1, 1)
        )
        if gap > z * np.sqrt(spread / worlds):
            best, best_gap = m, gap
    return best, best == 0 and doubt


@kernel
def candidates(ws: WsPointer, sim: WsPointer, seat: np.int64, keep: np.int64) -> np.int64:
    """The heuristic's best ``keep`` moves, best first, into MOVE_SLOT/MOVE_MASK; returns how
    many. Ranked in the second block, where every seat has the heuristic's weights; of the
    moves its rules allow where it follows some (`follow`)."""
    copy_deal(ws, sim)
    find_groups(sim, seat)
    count = list_moves(sim, seat)
    if follow.followed(ws, seat):
        count = follow.obey(ws, sim, seat, count) or count
    count = heuristic.rank_moves(sim, seat, count, keep)
    for m in range(count):
        ws[layout.MOVE_SLOT + m] = sim[layout.MOVE_SLOT + m]
        ws[layout.MOVE_MASK + m] = sim[layout.MOVE_MASK + m]
    return count


@kernel
def solve_moves(
    ws: WsPointer, sim: WsPointer, seat: np.int64, count: np.int64, true_deal: bool, nodes: np.int64
) -> bool:
    """SEARCH_TOTAL gets each move's exact value, in the true deal (the clairvoyant) or in the
    one world there is when nothing is hidden; False if the solver declined (more than
    ``nodes`` positions opened)."""
    exact.start_decision(sim, nodes)
    for m in range(count):
        if true_deal:
            copy_deal(ws, sim)
        else:
            _enter_world(ws, sim, seat, np.uint64(0))
        value = exact.value_after(sim, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m])
        if value == exact.DECLINED:
            return False
        ws[SEARCH_TOTAL + m] = value
    return True


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def _sample_worlds(
    ws: WsPointer, sim: WsPointer, seat: np.int64, count: np.int64, wide: np.int64, weighed: bool
) -> np.int64:
    """SEARCH_TOTAL gets each of ``count`` moves' playout results summed over the worlds:
    ``worlds`` of them, then as many again while the verdict is in doubt, up to ``max_worlds``
    (the worlds come in a fixed order, so a decision is the same however many it takes). Where
    the first worlds leave it in doubt and ``wide`` ranked moves are more than ``count``, all
    ``wide`` are judged again from the first world, within what is left of the budget (the
    worlds disagree: the move they would pick may be further down the heuristic's list).
    Returns how many worlds were played; SEARCH_CANDIDATES: how many moves they judged."""
    _clear_sums(ws, wide)
    key = np.uint64(ws[layout.RNG])
    factor = (
        1.0 if param(ws, seat, _INFER) else 1.0 - param(ws, seat, _BELIEF) / 1000.0
    )  # inference or evidence
    batch, most = (
        param(ws, seat, _WORLDS),
        max(param(ws, seat, _WORLDS), param(ws, seat, _MAX_WORLDS)),
    )
    played = np.int64(0)
    while played < most:
        for w in range(played, min(played + batch, most)):
            _play_world(ws, sim, seat, count, stream_start(key, w, seat), weighed, factor)
        played = min(played + batch, most)
        if not _best_sampled(ws, seat, count, played)[1]:
            break
        if (
            count < wide and (most - played) * count >= batch * wide
        ):  # a batch of every move still fits
            most, count, played = (most - played) * count // wide, wide, np.int64(0)
            _clear_sums(ws, wide)
    ws[SEARCH_CANDIDATES] = count
    ws[layout.RNG] = np.int64(next_below(key, 2)[0])  # the deal's stream moves on
    return played


@kernel(inline="always")
def _clear_sums(ws: WsPointer, count: np.int64) -> None:
    """The sums over the worlds of the first ``count`` moves, back to none."""
    for m in range(count):
        ws[SEARCH_TOTAL + m] = 0
        ws[SEARCH_SQUARES + m] = 0
        ws[SEARCH_GAP_SQUARES + m] = 0


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def _play_world(
    ws: WsPointer,
    sim: WsPointer,
    seat: np.int64,
    count: np.int64,
    world: np.uint64,
    weighed: bool,
    factor: np.float64,
) -> None:
    """Deal one world (by the belief if ``weighed``) and add each candidate's playout to the
    sums."""
    if weighed:
        copy_deal(ws, sim)
        belief.deal_hidden(ws, sim, seat, world, factor)
    else:
        _enter_world(ws, sim, seat, world)
    save_world(sim)
    first = np.int64(0)
    for m in range(count):
        margin = play_out(ws, sim, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m])
        first = margin if m == 0 else first
        ws[SEARCH_TOTAL + m] += margin
        ws[SEARCH_SQUARES + m] += margin * margin
        ws[SEARCH_GAP_SQUARES + m] += (margin - first) ** 2


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def playouts(
    ws: WsPointer, seat: np.int64, count: np.int64, worlds: np.int64, out: np.ndarray
) -> None:
    """Each of the first ``count`` listed moves played out (`play_out`) in each of ``worlds``
    uniform worlds from the deal's stream: ``out[w * count + m]`` is move m's margin in world w, in
    `POINT` units. A judge's raw material (`simcasino.findings`): any two moves compared world by
    world."""
    sim = playout_block(ws)
    playout_weights(ws, sim, seat)
    key = np.uint64(ws[layout.RNG])
    for w in range(worlds):
        _enter_world(ws, sim, seat, stream_start(key, w, seat))
        save_world(sim)
        for m in range(count):
            out[w * count + m] = play_out(
                ws, sim, seat, ws[layout.MOVE_SLOT + m], ws[layout.MOVE_MASK + m]
            )


@kernel
def playout_weights(ws: WsPointer, sim: WsPointer, seat: np.int64) -> None:
    """Every seat of the imagined deals plays the heuristic with the weights in our params
    (free: none of the rules we follow); the exact solves of this decision are minimax or a
    best response to that heuristic, as ``respond`` says."""
    exact.respond(sim, param(ws, seat, _RESPOND) == _BEST_RESPONSE)
    for other in range(layout.MAX_PLAYERS):
        for k in range(follow.FOLLOW_FIRST - _WEIGHTS):
            sim[params_at(other) + k] = param(ws, seat, _WEIGHTS + k)
        if other < sim[layout.R_PLAYERS]:
            heuristic.prepare_seat(sim, other)


@kernel
def save_world(sim: WsPointer) -> None:
    """Keep the world dealt in ``sim`` (WORLD_STATE): each candidate move starts from it."""
    for k in range(layout.STATE_SIZE):
        sim[WORLD_STATE + k] = sim[layout.DECK + k]


@kernel
def play_out(
    ws: WsPointer, sim: WsPointer, seat: np.int64, slot: np.int64, mask: np.int64
) -> np.int64:
    """The `margin` after playing (slot, mask) in the saved world, in `POINT` units: the
    heuristic plays the deal on (``depth`` turns at most), or to the end, then solved exactly
    once ``endgame`` cards are left; with ``value`` (and a value loaded), to the end of the
    current round only, scored there by the learned value (`value.value_of`)."""
    _copy_state(sim, np.int64(WORLD_STATE), np.int64(layout.DECK))
    if sim[layout.R_OPPONENT_CHOOSES]:
        find_groups(sim, seat)  # the next seat's pick (§6 Misère) reads this turn's captures
    sim[layout.CHOSEN_MASK] = mask
    if end_turn(sim, seat, slot):
        return POINT * margin(sim, seat)
    depth = param(ws, seat, _DEPTH)
    endgame = endgame_cards(ws, seat) if depth == 0 else 0
    valued = param(ws, seat, _VALUE) if ws[value.VALUE_ON] else 0
    turns = 0
    while depth == 0 or turns < depth:
        if valued and value.at_boundary(sim) and (valued == 1 or value.last_to_deal(sim)):
            return np.int64(round(POINT * value.value_of(ws, sim, seat)))
        if endgame and exact.cards_left(sim) <= endgame:
            return POINT * _solved_or_played(sim, seat)
        turn = start_turn(sim)
        if turn < 0 or end_turn(sim, turn, heuristic.choose_kernel(sim, turn)):
            return POINT * margin(sim, seat)  # the deal over (then scored), or won on the spot
        turns += 1
    if start_turn(sim) >= 0:  # ``depth`` turns played and the deal not over: score it as it stands
        score_deal(sim)
    return POINT * margin(sim, seat)


@kernel(inline="always")  # one call site: compiled into its caller, not linked again
def _solved_or_played(sim: WsPointer, seat: np.int64) -> np.int64:
    """The exact value of the rest of the world in ``sim``, or if the solver declines (its
    node budget), the heuristic's playout of it to the end."""
    _copy_state(sim, np.int64(layout.DECK), np.int64(ENDGAME_STATE))
    exact.start_decision(sim, exact.ENDGAME_BUDGET)
    value = exact.value_of_rest(sim, seat)
    if value != exact.DECLINED:
        return value
    _copy_state(sim, np.int64(ENDGAME_STATE), np.int64(layout.DECK))
    turn = start_turn(sim)
    while turn >= 0 and not end_turn(sim, turn, heuristic.choose_kernel(sim, turn)):
        turn = start_turn(sim)
    return margin(sim, seat)


@kernel
def _copy_state(sim: WsPointer, source: np.int64, target: np.int64) -> None:
    for k in range(layout.STATE_SIZE):
        sim[target + k] = sim[source + k]


@kernel
def copy_deal(ws: WsPointer, sim: WsPointer) -> None:
    """The deal as it stands, into the second block (hidden cards where they really lie)."""
    for k in range(layout.DECK, layout.STATE_END):
        sim[k] = ws[k]


@kernel
def _enter_world(ws: WsPointer, sim: WsPointer, seat: np.int64, world: np.uint64) -> None:
    """The deal as it stands, with the cards ``seat`` cannot see dealt out by ``world`` (the
    hand-seer's: only the stock's)."""
    copy_deal(ws, sim)
    if param(ws, seat, SEES_HANDS_SLOT):
        _shuffle_stock(sim, world)
    else:
        _deal_hidden(sim, seat, world)


@kernel
def _shuffle_stock(sim: WsPointer, world: np.uint64) -> None:
    """The stock's cards (taken in card order, so its true order never matters) shuffled by
    ``world``: the hand-seer's world, every hand as it is."""
    first, last = sim[layout.NEXT_CARD], sim[layout.DECK_N]
    stock = np.sort(np.array([sim[layout.DECK + k] for k in range(first, last)], dtype=np.int64))
    state = world
    for i in range(stock.shape[0] - 1, 0, -1):  # Fisher-Yates
        state, j = next_below(state, i + 1)
        stock[i], stock[j] = stock[j], stock[i]
    for k in range(stock.shape[0]):
        sim[layout.DECK + first + k] = stock[k]


@kernel
def _deal_hidden(sim: WsPointer, seat: np.int64, world: np.uint64) -> None:
    """Deal what ``seat`` cannot see (taken in card order, so that only the set of unseen
    cards matters, never where they lie) shuffled into the other hands and the stock, in
    the same sizes: a world consistent with everything ``seat`` knows."""
    hidden, count = belief.hidden_cards(sim, seat)
    state = world
    for i in range(count - 1, 0, -1):  # Fisher-Yates
        state, j = next_below(state, i + 1)
        hidden[i], hidden[j] = hidden[j], hidden[i]
    count = 0
    for other in range(sim[layout.R_PLAYERS]):
        if other != seat:
            for k in range(sim[layout.HAND_N + other]):
                sim[hand_at(other) + k] = hidden[count]
                count += 1
            sim[layout.HAND_NEED + other] = hand_need(sim, other)
    for k in range(sim[layout.NEXT_CARD], sim[layout.DECK_N]):
        sim[layout.DECK + k] = hidden[count]
        count += 1
