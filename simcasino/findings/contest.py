"""Where the advice matters, for a strong player: every contested position of real play by the
search, judged.

A position is *contested* for a claim when some legal move follows it and some breaks it (its
move test, `advice.claims`); only there can following it gain or cost anything. The
positions are every decision of every seat in deals the search plays against itself (the
reference referee with the kernel's search in each seat, `loop.seat.KernelSeat`), so they are
the positions a strong player meets.

The judge: every legal move played out (the search's playouts: the heuristic plays the deal
on, the endgame solved exactly as the search does) in the same uniform worlds of the cards the
player cannot see, world by world (`loop.position.playout_margins`), in two independent
streams A and B of ``worlds`` worlds each. The best following and the best breaking move are
chosen on A and valued on B, so the gain (points of the deal, the deciding side's margin) is
paired and is not inflated by the choice of the luckiest move; its standard error is that of
the paired differences. The second judgment chooses on B and values on A: the two disagree
only by the judge's noise (its *noise floor*). Where nothing is hidden (two players, the stock
empty) the search's exact solver values every move instead, and those positions are reported
apart (their gain has no error).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from simcasino.advice.claims import BREAKS, FOLLOWS, label
from simcasino.core.protocol import Move, Stream, View
from simcasino.core.rules import Rules
from simcasino.loop.position import DealHistory, playout_margins, search_values
from simcasino.loop.seat import KernelSeat, deal_history
from simcasino.reference.state import DealState
from simcasino.strategies import StrategySpec

PLAYER = StrategySpec("search")  # the strong player whose positions are judged (its defaults)
JUDGE = StrategySpec(
    "search"
)  # whose playouts value the moves (the same playouts, every move tried)
EXACT = StrategySpec("search", {"moves": 64.0})  # every move solved where nothing is hidden
STAGES = (
    "first",
    "middle",
    "last",
)  # the round of the deal: the first, the last (R-LAST), any other


@dataclass(frozen=True)
class Position:
    """One decision of real play: the view, what the kernel needs of the rest of the deal,
    the deal it belongs to (the cluster of the intervals), its stage and the move played."""

    deal: int
    stage: str
    view: View
    hands: list[list[int]]
    stock: list[int]
    history: DealHistory
    played: Move


@dataclass(frozen=True)
class Judged:
    """One contested position for one claim: the gain of the best following move over the best
    breaking move (points of the deal) and its standard error, chosen on stream A and valued
    on B, and again chosen on B and valued on A (``again``, ``again_se``: the noise floor);
    ``exact``: solved, no error; ``played_breaks``: the player's own move broke the claim, and
    then ``changed``: what following instead is worth (the best following move, chosen on A,
    against the played move, both valued on B); ``shuffled``: the same estimator with the
    follow/break labels shuffled within the position (their counts kept), the level that
    best-versus-best reaches by the number of moves on each side alone."""

    claim: str
    deal: int
    stage: str
    gain: float
    se: float
    again: float
    again_se: float
    exact: bool
    played_breaks: bool
    changed: float = float(
        "nan"
    )  # where the played move breaks it: the best following move less the played one
    changed_se: float = float("nan")
    shuffled: float = (
        0.0  # the gain with the labels shuffled within the position (counts kept): chance's level
    )


def stage_of(state: DealState) -> str:
    """`STAGES`: the first round, the last (R-LAST), or one between."""
    if state.last_round:
        return "last"
    return "first" if state.rounds <= 1 else "middle"


def record(rules: Rules, deals: int, seed: int, player: StrategySpec = PLAYER) -> list[Position]:
    """Every decision of every seat in ``deals`` deals of ``player`` against itself (the deals
    of ``seed`` as `simulate` numbers them; §6 Misère picks left out)."""
    seat, out = KernelSeat(player), []
    for index in range(deals):
        state = DealState.new(rules, seed, index)
        stream = Stream(state.rng)
        while not state.is_over:
            view = state.observation(state.to_move)
            move = seat.decide(state, stream)
            if view.chooser_for < 0:
                out.append(
                    Position(
                        index,
                        stage_of(state),
                        view,
                        [list(h) for h in state.hands],
                        state.stock,
                        deal_history(state),
                        move,
                    )
                )
            state.apply(move)
    return out


def judge(position: Position, claims: Sequence[str], worlds: int, seed: int) -> list[Judged]:
    """Each claim of ``claims`` contested at ``position``, judged (see the module docstring)."""
    view = position.view
    labels = {claim: [label(claim, view, move) for move in view.moves] for claim in claims}
    contested = [c for c, row in labels.items() if FOLLOWS in row and BREAKS in row]
    if not contested:
        return []
    exact = _exact_values(position)
    if exact is None:
        moves, margins = playout_margins(
            view, JUDGE, position.hands, position.stock, position.history, 2 * worlds, seed
        )
        order = [moves.index(m) for m in view.moves]
        first, second = margins[:worlds, order], margins[worlds:, order]
    out = []
    for claim in contested:
        row = labels[claim]
        follows = [k for k, answer in enumerate(row) if answer == FOLLOWS]
        breaks = [k for k, answer in enumerate(row) if answer == BREAKS]
        played = view.moves.index(position.played)
        played_breaks = row[played] == BREAKS
        mixed = np.random.default_rng([seed, len(out)]).permutation(row)
        f_shuffled = [k for k, answer in enumerate(mixed) if answer == FOLLOWS]
        b_shuffled = [k for k, answer in enumerate(mixed) if answer == BREAKS]
        if exact is not None:
            gain = max(exact[k] for k in follows) - max(exact[k] for k in breaks)
            changed = (
                max(exact[k] for k in follows) - exact[played] if played_breaks else float("nan")
            )
            shuffled = max(exact[k] for k in f_shuffled) - max(exact[k] for k in b_shuffled)
            out.append(
                Judged(
                    claim,
                    position.deal,
                    position.stage,
                    gain,
                    0.0,
                    gain,
                    0.0,
                    True,
                    played_breaks,
                    changed,
                    0.0 if played_breaks else float("nan"),
                    shuffled,
                )
            )
            continue
        gain, se = paired_gain(first, second, follows, breaks)
        again, again_se = paired_gain(second, first, follows, breaks)
        changed, changed_se = (
            paired_gain(first, second, follows, [played]) if played_breaks else (float("nan"),) * 2
        )
        shuffled = paired_gain(first, second, f_shuffled, b_shuffled)[0]
        out.append(
            Judged(
                claim,
                position.deal,
                position.stage,
                gain,
                se,
                again,
                again_se,
                False,
                played_breaks,
                changed,
                changed_se,
                shuffled,
            )
        )
    return out


def paired_gain(
    choose: np.ndarray, value: np.ndarray, follows: Sequence[int], breaks: Sequence[int]
) -> tuple[float, float]:
    """The best following move less the best breaking move, both chosen by their means in
    ``choose`` (worlds × moves) and valued world by world in ``value``: the mean difference
    and its standard error."""
    means = choose.mean(axis=0)
    f = max(follows, key=lambda k: means[k])
    b = max(breaks, key=lambda k: means[k])
    diff = value[:, f] - value[:, b]
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(len(diff)))


def _exact_values(position: Position) -> list[float] | None:
    """Every move's exact value in the view's order where nothing is hidden, else None."""
    view = position.view
    if view.rules.players != 2 or view.stock_left:
        return None
    values = search_values(view, EXACT, position.hands, position.stock, position.history)
    if set(values) != set(view.moves) or any(se for _, se in values.values()):
        return None  # the solver declined (its node budget)
    return [values[move][0] for move in view.moves]


def audit(
    rules: Rules,
    claims: Sequence[str],
    deals: int,
    worlds: int,
    seed: int,
    say: Callable[[str], None] = lambda _: None,
) -> tuple[list[Judged], list[Position]]:
    """Record ``deals`` deals of the search and judge every contested position of ``claims``."""
    positions = record(rules, deals, seed)
    judged: list[Judged] = []
    for k, position in enumerate(positions):
        judged += judge(position, claims, worlds, seed + 1 + k)
        if (k + 1) % 50 == 0:
            say(f"  judged {k + 1} of {len(positions)} positions")
    return judged, positions
