"""Many tables stepped together in the kernel, for learners that want millions of steps.

Why: the single environments (`gym_env`, `pettingzoo_env`) step a Python `DealState`, some
thousands of steps a second, while the kernel plays millions of decisions. `KasinoBatch`
holds N tables; one call steps all of them from an array of actions (the card-then-option
actions of `interop.actions`), the opponents' moves made inside the kernel by the
registry's kernel strategies, and writes each table's observation (the layout of
`interop.encoding`, the parts at the offsets `encoding.pieces` gives, so one layout serves
both faces), legal-action mask, reward and termination into preallocated arrays.

Why the deal states are swapped through one workspace a thread: a workspace is 4 MiB (the
strategies' memory), a deal's state 694 words (`layout.DECK` to `STATE_END`), so thousands
of tables keep only their states and each step copies one in and out. Strategies whose
memory outlives a decision (the search's inference about the others' hands) would lose it in
the swap, so the opponents are those whose decisions read the deal alone (`STEPPED`).

Episodes are deals: table i plays deals 0, 1, 2 ... of its own seed (``seed + i``, or the
seeds given), as ``KasinoSoloEnv.reset(seed=...)`` and its later resets do, so an episode
depends on its seed and its number only, not on the batch size or the threads. A finished
or illegal episode resets in the same step (its last observation in `final_observations`);
an illegal action ends it with the lowest return (`outcome.bounds`), as in the single
environment. With ``rotate`` the learner's seat moves one seat on each episode.
Not covered yet: §6 Builds (a card's options are not its legal moves there) and §6 Misère
(the learner would pick among the others' captures): both refused at construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from simcasino.core.jit import kernel
from simcasino.core.rng import seed_key
from simcasino.core.rules import Rules, resolve
from simcasino.engine import layout
from simcasino.engine.captures import find_groups
from simcasino.engine.dealing import reset_deal, start_deck
from simcasino.engine.layout import WsPointer, hand_card, workspace_pointer
from simcasino.engine.moves import list_moves, sweep_scores
from simcasino.interop.actions import CARD_ACTIONS, NUM_ACTIONS, OPTION_BASE, OPTIONS
from simcasino.interop.encoding import ObservationKind, pieces
from simcasino.interop.outcome import UTILITIES, bounds, check_utility
from simcasino.loop.batch import seat_arrays
from simcasino.loop.dispatch import choose
from simcasino.loop.entry import flags
from simcasino.loop.workspace import make_workspace
from simcasino.strategies import check_builds, parse_strategy, tier_of
from simcasino.strategies.turn import end_turn, start_turn

PARTS = (
    "hand",
    "table",
    "builds",
    "build_values",
    "piles",
    "chosen",
    "options",
    "phase",
    "to_move",
    "hand_sizes",
    "scores",
    "deal",
)
(
    P_HAND,
    P_TABLE,
    P_BUILDS,
    P_BUILD_VALUES,
    P_PILES,
    P_CHOSEN,
    P_OPTIONS,
    P_PHASE,
    P_TO_MOVE,
    P_SIZES,
    P_SCORES,
    P_DEAL,
) = range(len(PARTS))
ROW = CARD_ACTIONS + 4  # `encoding.OPTION_FEATURES`: an option row
STEPPED = (
    "random",
    "greedy",
    "heuristic",
)  # opponents whose decisions read nothing kept between them
# per table: the learner's seat this episode, the card chosen (-1: none), the span of its options
# still in play (indices into the kernel's move list), the episode (the deal of its seed)
M_SEAT, M_CARD, M_LOW, M_HIGH, M_EPISODE, M_FIRST_SEAT = range(6)
META = 6
GOING, OVER, ILLEGAL = 0, 1, 2


@kernel(nogil=True)
def step_tables(
    work: np.ndarray,
    states: np.ndarray,
    meta: np.ndarray,
    keys: np.ndarray,
    actions: np.ndarray,
    obs: np.ndarray,
    final: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    illegal: np.ndarray,
    where: np.ndarray,
    config: np.ndarray,
    low: np.float64,
    first: np.int64,
    last: np.int64,
    resetting: bool,
    weighs: bool | None,
) -> None:
    """Step tables ``first .. last`` (or, ``resetting``, begin their current episode): each
    state loaded into ``work``, the action taken, the opponents' moves made, a finished
    episode scored into ``rewards`` and begun afresh, the observation and mask written."""
    ws = workspace_pointer(work)
    for i in range(first, last):
        for k in range(layout.STATE_SIZE):
            ws[layout.DECK + k] = states[i, k]
        done[i], illegal[i], rewards[i] = False, False, 0.0
        status = GOING
        if resetting:
            _begin(work, ws, meta, keys, i, config, weighs)
        else:
            status = _act(ws, meta, i, actions[i], weighs)
        if status != GOING:
            done[i], illegal[i] = True, status == ILLEGAL
            _encode(ws, meta, i, where, final[i], status == OVER)
            rewards[i] = low if status == ILLEGAL else _reward(ws, meta[i, M_SEAT], config[0])
            meta[i, M_EPISODE] += 1
            _begin(work, ws, meta, keys, i, config, weighs)
        _encode(ws, meta, i, where, obs[i], False)
        _mask(ws, meta, i, masks[i])
        for k in range(layout.STATE_SIZE):
            states[i, k] = ws[layout.DECK + k]


@kernel
def _begin(
    work: np.ndarray,
    ws: WsPointer,
    meta: np.ndarray,
    keys: np.ndarray,
    i: np.int64,
    config: np.ndarray,
    weighs: bool | None,
) -> None:
    """Deal episode ``meta[i, M_EPISODE]`` of table ``i`` (its seed's deal of that number,
    the last seat dealing) and play the opponents up to the learner's first decision."""
    n = ws[layout.R_PLAYERS]
    episode = meta[i, M_EPISODE]
    for seat in range(layout.MAX_PLAYERS):
        ws[layout.GAME_SCORE + seat] = 0
    ws[layout.CARRY_IN + layout.CARRY_CARDS] = 0
    ws[layout.CARRY_IN + layout.CARRY_SPADES] = 0
    start_deck(work, keys[i], episode, np.int64(0))
    reset_deal(ws, n - 1)
    meta[i, M_SEAT] = (meta[i, M_FIRST_SEAT] + episode * config[1]) % n
    meta[i, M_CARD] = -1
    _advance(ws, meta[i, M_SEAT], weighs)


@kernel
def _advance(ws: WsPointer, learner: np.int64, weighs: bool | None) -> bool:
    """The opponents' moves until the learner is to move (its groups then listed); True once
    the deal is over."""
    seat = start_turn(ws)
    while seat >= 0 and seat != learner:
        if end_turn(ws, seat, choose(ws, seat, None, weighs, None, None)):
            return True
        seat = start_turn(ws)
    return seat < 0


@kernel
def _kind_span(ws: WsPointer, seat: np.int64, kind: np.int64) -> tuple[np.int64, np.int64]:
    """The listed moves of the card of ``kind`` (contiguous: the list goes by hand slot)."""
    low, high = np.int64(-1), np.int64(-1)
    for m in range(ws[layout.MOVES_N]):
        if hand_card(ws, seat, ws[layout.MOVE_SLOT + m]) % layout.KINDS == kind:
            if low < 0:
                low = m
            high = m + 1
    return low, high


@kernel(inline="always")
def _block(low: np.int64, high: np.int64, j: np.int64) -> tuple[np.int64, np.int64]:
    """What option action ``j`` picks of the options ``low .. high`` (`PendingMove.blocks`)."""
    size = max(1, (high - low + OPTIONS - 1) // OPTIONS)
    return min(high, low + j * size), min(high, low + (j + 1) * size)


@kernel
def _act(
    ws: WsPointer, meta: np.ndarray, i: np.int64, action: np.int64, weighs: bool | None
) -> np.int64:
    """The learner's ``action`` taken (a card, or an option of the card chosen); GOING, OVER
    or ILLEGAL."""
    seat = meta[i, M_SEAT]
    find_groups(ws, seat)
    list_moves(ws, seat)
    if meta[i, M_CARD] < 0:
        if not 0 <= action < CARD_ACTIONS:
            return ILLEGAL
        low, high = _kind_span(ws, seat, action)
        if low < 0:
            return ILLEGAL
    else:
        j = action - OPTION_BASE
        if not 0 <= j < OPTIONS:
            return ILLEGAL
        low, high = _block(meta[i, M_LOW], meta[i, M_HIGH], j)
        if high <= low:
            return ILLEGAL
    if high - low > 1:
        if meta[i, M_CARD] < 0:
            meta[i, M_CARD] = action
        meta[i, M_LOW], meta[i, M_HIGH] = low, high
        return GOING
    meta[i, M_CARD] = -1
    ws[layout.CHOSEN_MASK] = ws[layout.MOVE_MASK + low]
    if end_turn(ws, seat, ws[layout.MOVE_SLOT + low]) or _advance(ws, seat, weighs):
        return OVER
    return GOING


@kernel
def _reward(ws: WsPointer, seat: np.int64, utility: np.int64) -> np.float64:
    """The finished deal's return for ``seat`` (`outcome.returns`: 0 points, 1 difference, 2
    win)."""
    sign = -1 if ws[layout.R_LOW_WINS] else 1
    mine = sign * ws[layout.result_row(seat) + layout.C_POINTS]
    if utility == 0:
        return np.float64(mine)
    units = ws[layout.UNITS]
    best = np.int64(-1 << 40)
    for v in range(units):
        if v != seat % units:
            best = max(best, sign * ws[layout.result_row(v) + layout.C_POINTS])
    margin = mine - best
    if utility == 1:
        return np.float64(margin)
    return np.float64((margin > 0) - (margin < 0))


@kernel
def _mask(ws: WsPointer, meta: np.ndarray, i: np.int64, mask: np.ndarray) -> None:
    """The learner's legal actions (its groups and moves listed again: the workspace's
    scratch belongs to whichever table stepped last)."""
    mask[:] = False
    seat = meta[i, M_SEAT]
    find_groups(ws, seat)
    list_moves(ws, seat)
    if meta[i, M_CARD] < 0:
        for m in range(ws[layout.MOVES_N]):
            mask[hand_card(ws, seat, ws[layout.MOVE_SLOT + m]) % layout.KINDS] = True
        return
    for j in range(OPTIONS):
        low, high = _block(meta[i, M_LOW], meta[i, M_HIGH], j)
        mask[OPTION_BASE + j] = high > low


@kernel
def _encode(
    ws: WsPointer, meta: np.ndarray, i: np.int64, where: np.ndarray, out: np.ndarray, over: bool
) -> None:
    """`encoding.Tensor.fill` for the learner of table ``i`` (no builds: see the module)."""
    out[:] = 0.0
    seat, n, kinds = meta[i, M_SEAT], ws[layout.R_PLAYERS], layout.KINDS
    for k in range(ws[layout.HAND_N + seat]):
        out[where[P_HAND] + hand_card(ws, seat, k) % kinds] += 1
    for k in range(ws[layout.TABLE_N]):
        out[where[P_TABLE] + ws[layout.TABLE + k] % kinds] += 1
    for card in range(ws[layout.DECK_N]):
        owner = ws[layout.OWNER + card]
        if owner >= 0:
            out[where[P_PILES] + ((owner - seat) % n) * kinds + card % kinds] += 1
    if not over:  # the learner is to move
        out[where[P_PHASE] + (meta[i, M_CARD] >= 0)] = 1
        out[where[P_TO_MOVE]] = 1
        if meta[i, M_CARD] >= 0:
            _encode_options(ws, meta, i, where, out)
    for s in range(n):
        out[where[P_SIZES] + (s - seat) % n] = ws[layout.HAND_N + s] / ws[layout.R_HAND_CARDS]
        live = ws[layout.GAME_SCORE + s] + ws[layout.IMMEDIATE + ws[layout.UNIT + s]]
        out[where[P_SCORES] + (s - seat) % n] = live / ws[layout.R_TARGET]
    deal = where[P_DEAL]
    out[deal] = (ws[layout.DECK_N] - ws[layout.NEXT_CARD]) / ws[layout.DECK_N]
    out[deal + 1] = ws[layout.LAST_ROUND]
    out[deal + 2] = sweep_scores(ws)


@kernel
def _encode_options(
    ws: WsPointer, meta: np.ndarray, i: np.int64, where: np.ndarray, out: np.ndarray
) -> None:
    """The card chosen, and each option action's move (a block's first) as its row."""
    out[where[P_CHOSEN] + meta[i, M_CARD]] = 1
    low, high = meta[i, M_LOW], meta[i, M_HIGH]
    for j in range(OPTIONS):
        first, end = _block(low, high, j)
        if end > first:
            row = where[P_OPTIONS] + j * ROW
            taken = ws[layout.MOVE_MASK + first]
            for k in range(ws[layout.TABLE_N]):
                if taken >> k & 1:
                    out[row + ws[layout.TABLE + k] % layout.KINDS] += 1
            out[row + layout.KINDS + (taken != 0)] = 1  # trail 0, capture 1 (no builds: value 0)
    out[where[P_DEAL] + 3] = _block(low, high, 0)[1] - low > 1


def part_offsets(rules: Rules) -> np.ndarray:
    """Where each of `PARTS` starts in the flat observation (`encoding.pieces`)."""
    starts, at = {}, 0
    for name, shape in pieces(rules, ObservationKind()):
        starts[name] = at
        at += int(np.prod(shape))
    return np.array([starts[name] for name in PARTS], dtype=np.int64)


def check_table(rules: Rules, opponent: str) -> None:
    """ValueError for what the batch does not cover (see the module docstring)."""
    if rules.builds or rules.opponent_chooses:
        raise ValueError(
            f"the batched environment does not cover §6 {'Builds' if rules.builds else 'Misère'} "
            f"yet (rules {rules.name!r}): use simcasino.interop.gym_env"
        )
    if rules.players > layout.MAX_PLAYERS:
        raise ValueError(f"at most {layout.MAX_PLAYERS} players")
    if parse_strategy(opponent).name not in STEPPED:
        raise ValueError(
            f"opponent {opponent!r}: the batched environment seats {', '.join(STEPPED)}"
        )


class KasinoBatch:
    """N tables of one learner against kernel opponents, stepped together (module docstring).

    After `reset` and each `step`: ``observations`` (N, size) float32, ``masks`` (N, 68) bool,
    ``rewards`` (N,) float32, ``terminated`` (N,) bool, ``illegal`` (N,) bool and
    ``final_observations`` (rows of the tables that finished this step): arrays the kernel
    writes in place, returned rather than copied.
    """

    def __init__(
        self,
        rules: Rules | str | dict = "swedish",
        tables: int = 1024,
        opponent: str = "greedy",
        seat: int = 0,
        rotate: bool = False,
        utility: str = "points",
        threads: int | None = None,
    ) -> None:
        self.rules, self.utility = resolve(rules), check_utility(utility)
        check_table(self.rules, opponent)
        n = self.rules.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r}: this table has seats 0-{n - 1}")
        specs = [parse_strategy(opponent)] * n
        check_builds(self.rules.builds, specs)
        self.tables, self.seat, self.rotate = int(tables), seat, bool(rotate)
        self.weighs = flags(tier_of(specs))[1]
        ids, params, counts = seat_arrays(specs)
        workers = max(1, min(threads or numba.config.NUMBA_NUM_THREADS, self.tables))
        self._works = [
            make_workspace(self.rules.to_array(), ids, params, counts, self.weighs)
            for _ in range(workers)
        ]
        cut = np.linspace(0, self.tables, workers + 1).astype(np.int64)
        self._chunks = list(zip(cut[:-1], cut[1:]))
        self._pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 else None
        self.where = part_offsets(self.rules)
        size = sum(int(np.prod(shape)) for _, shape in pieces(self.rules, ObservationKind()))
        self.observations = np.zeros((self.tables, size), np.float32)
        self.final_observations = np.zeros((self.tables, size), np.float32)
        self.masks = np.zeros((self.tables, NUM_ACTIONS), np.bool_)
        self.rewards = np.zeros(self.tables, np.float32)
        self.terminated = np.zeros(self.tables, np.bool_)
        self.illegal = np.zeros(self.tables, np.bool_)
        # every state starts as a fresh workspace's (the deck's size and what else a deal keeps)
        self._states = np.tile(self._works[0][layout.DECK : layout.STATE_END], (self.tables, 1))
        self._meta = np.zeros((self.tables, META), np.int64)
        self._keys = np.zeros(self.tables, np.uint64)
        self._config = np.array([UTILITIES.index(self.utility), int(self.rotate)], np.int64)
        self._low = float(bounds(self.rules, self.utility)[0])
        self._actions = np.zeros(self.tables, np.int64)

    def reset(self, seed: int | Sequence[int] = 0) -> tuple[np.ndarray, np.ndarray]:
        """Every table at episode 0 of its seed (``seed + i``, or ``seed[i]``): observations,
        masks."""
        seeds = (
            [seed + i for i in range(self.tables)]
            if isinstance(seed, (int, np.integer))
            else list(seed)
        )
        if len(seeds) != self.tables:
            raise ValueError(f"{len(seeds)} seeds for {self.tables} tables")
        self._keys[:] = [seed_key(s) for s in seeds]
        self._meta[:] = 0
        self._meta[:, M_FIRST_SEAT] = self.seat
        self._run(True)
        return self.observations, self.masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each table's action taken: observations, masks, rewards, terminated (episodes that
        ended reset at once; their last observations in ``final_observations``)."""
        self._actions[:] = actions
        self._run(False)
        return self.observations, self.masks, self.rewards, self.terminated

    def _run(self, resetting: bool) -> None:
        def chunk(k: int) -> None:
            first, last = self._chunks[k]
            step_tables(
                self._works[k],
                self._states,
                self._meta,
                self._keys,
                self._actions,
                self.observations,
                self.final_observations,
                self.masks,
                self.rewards,
                self.terminated,
                self.illegal,
                self.where,
                self._config,
                np.float64(self._low),
                np.int64(first),
                np.int64(last),
                np.bool_(resetting),
                self.weighs,
            )

        if self._pool is None:
            chunk(0)
        else:
            list(self._pool.map(chunk, range(len(self._chunks))))

    @property
    def seats(self) -> np.ndarray:
        """Each table's learner seat this episode."""
        return self._meta[:, M_SEAT].copy()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
