"""The learned value of a round's end: what the rest of a deal is worth from a public state.

At the end of a round every hand is empty: nothing is hidden but the stock's order, hidden
from everyone, so the state's worth needs no belief about anyone's cards. The search ends each
playout there (``search:value=1``) and scores it by this value instead of playing the rest of
the deal with the heuristic, whose play of later rounds is not the search's (docs/strategies.md,
"The value of a round's end"). The value is learned from the search's own deals (`simcasino.learn`)
and shipped as data: a small JSON file per rule set, with the commit and seed that made it
(`VALUES`), never code.

Its form: `FEATURES`, counts a player at the table could name, from one seat's side; the
margin the deal would give if it ended now (`margin` of the piles as they stand) plus a
correction by one hidden layer of ``tanh`` units over the standardized features, and a linear
term beside it. A value is evaluated inside the kernel in well under a microsecond (`value_of`),
its weights stored in the workspace as fixed-point integers (`FIXED`), written there from
Python (`load_into`) for the tables whose rules and player count the file was made for. Two
players only: with more, "the best other side" has no single opponent to count against, and
the search plays every playout to the end as before.

The kernel computes the features (`features`); `python_features` computes them from the
reference engine's `DealState`, and the tests hold the two equal on random boundaries.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simcasino.core.cards import is_spade
from simcasino.core.jit import kernel
from simcasino.core.rules import Rules
from simcasino.core.table import item_cards
from simcasino.engine import layout
from simcasino.engine.layout import WsPointer, result_row
from simcasino.engine.memory import Area
from simcasino.engine.scoring import margin, score_deal

if TYPE_CHECKING:
    from simcasino.reference.state import DealState

FEATURES = (
    "margin now",  # the deal's margin if it ended here: the piles scored as they stand
    "cards ahead",  # cards in our piles less theirs
    "spades ahead",
    "cards not taken",  # on the table or in the stock
    "spades not taken",
    "points not taken",  # the points cards carry for their own sake (aces, kasinos), not yet taken
    "points on the table",
    "table items",
    "stock cards",
    "we lead",  # 1 if our seat plays first in the next round
    "last capturer",  # 1 us, -1 them, 0 nobody yet (the table's last cards go to them)
    "sweeps ahead",  # scored sweeps, ours less theirs
)
N_FEATURES = len(FEATURES)
HIDDEN = 16  # tanh units
FIXED = 1 << 24  # a weight w is stored as round(w * FIXED)
# the weights in the workspace: means, scales, hidden weights (HIDDEN x N_FEATURES), hidden
# biases, output weights, the linear term's weights, the output bias
_MEAN, _SCALE = 0, N_FEATURES
_HIDDEN_W = 2 * N_FEATURES
_HIDDEN_B = _HIDDEN_W + HIDDEN * N_FEATURES
_OUT_W = _HIDDEN_B + HIDDEN
_LINEAR_W = _OUT_W + HIDDEN
_OUT_B = _LINEAR_W + N_FEATURES
N_WEIGHTS = _OUT_B + 1
ROW = (
    3 + N_FEATURES
)  # a recorded boundary (`note`): filled (1), seat, the features, then the deal's margin
FORMAT = "simcasino-round-value"
VERSION = 1
VALUES = Path(__file__).with_name("values")  # the shipped files, one per rule set and player count
ENV_FILE = "SIMCASINO_VALUE"  # a value file of one's own, used instead of the shipped ones

_area = Area("value")
VALUE_ON = _area.region(1)  # 1 when weights are loaded (first block)
VALUE_WEIGHTS = _area.region(N_WEIGHTS)  # fixed-point (first block)
VALUE_FEATURES = _area.region(N_FEATURES)  # one boundary's features (scratch, in either block)


@kernel
def at_boundary(block: WsPointer) -> bool:
    """Every hand empty, some cards dealt and some still in the stock: a round's end, before
    the next round is dealt (the last round's end is the deal's, scored exactly instead)."""
    for seat in range(block[layout.R_PLAYERS]):
        if block[layout.HAND_N + seat]:
            return False
    return 0 < block[layout.NEXT_CARD] < block[layout.DECK_N]


@kernel
def last_to_deal(block: WsPointer) -> bool:
    """At most one round left in the stock: the next round is the last."""
    return (
        block[layout.DECK_N] - block[layout.NEXT_CARD]
        <= block[layout.R_PLAYERS] * block[layout.R_HAND_CARDS]
    )


@kernel
def features(block: WsPointer, seat: np.int64) -> None:
    """`FEATURES` of the deal in ``block`` from ``seat``'s side into VALUE_FEATURES (two
    units: the other is the next seat's). Scores the piles as they stand (RESULT)."""
    score_deal(block)
    f = VALUE_FEATURES
    other = seat + 1 if seat + 1 < block[layout.R_PLAYERS] else 0
    ours, theirs = result_row(seat), result_row(other)
    block[f] = margin(block, seat)
    block[f + 1] = block[ours + layout.C_CARDS] - block[theirs + layout.C_CARDS]
    block[f + 2] = block[ours + layout.C_SPADES] - block[theirs + layout.C_SPADES]
    block[f + 11] = block[ours + layout.C_TABBES] - block[theirs + layout.C_TABBES]
    cards, spades, points = 0, 0, 0
    for card in range(block[layout.DECK_N]):
        if block[layout.OWNER + card] < 0:
            cards += 1
            spades += block[layout.CARD_TALLY + card] >> 8 & 255
            points += block[layout.CARD_POINTS + card]
    block[f + 3], block[f + 4], block[f + 5] = cards, spades, points
    on_table = 0
    for i in range(block[layout.TABLE_N]):
        item = block[layout.TABLE + i]
        on_table += (
            block[layout.CARD_POINTS + item]
            if item < layout.DECK_CAP
            else block[layout.BUILD_POINTS + item - layout.DECK_CAP]
        )
    block[f + 6], block[f + 7] = on_table, block[layout.TABLE_N]
    block[f + 8] = block[layout.DECK_N] - block[layout.NEXT_CARD]
    n = block[layout.R_PLAYERS]
    block[f + 9] = seat == (block[layout.DEALER] + 1) % n
    last = block[layout.LAST_CAPTURER]
    block[f + 10] = (
        0 if last < 0 else (1 if block[layout.UNIT + last] == block[layout.UNIT + seat] else -1)
    )


@kernel
def value_of(ws: WsPointer, block: WsPointer, seat: np.int64) -> np.float64:
    """The learned worth, in points of ``seat``'s margin, of the round's end in ``block``,
    by the weights in ``ws`` (`features`, then the model of the module docstring)."""
    features(block, seat)
    w = VALUE_WEIGHTS
    x = np.empty(N_FEATURES)
    total = ws[w + _OUT_B] / FIXED
    for i in range(N_FEATURES):
        x[i] = (block[VALUE_FEATURES + i] - ws[w + _MEAN + i] / FIXED) / (
            ws[w + _SCALE + i] / FIXED
        )
        total += ws[w + _LINEAR_W + i] / FIXED * x[i]
    for j in range(HIDDEN):
        unit = ws[w + _HIDDEN_B + j] / FIXED
        for i in range(N_FEATURES):
            unit += ws[w + _HIDDEN_W + j * N_FEATURES + i] / FIXED * x[i]
        total += ws[w + _OUT_W + j] / FIXED * np.tanh(unit)
    return block[VALUE_FEATURES] + total


@kernel
def note(ws: WsPointer, rows: np.ndarray, row: np.int64, end: np.int64) -> np.int64:
    """A round's end of the real deal recorded for learning: a row per seat from ``row`` (up
    to ``end``) with its features (`ROW`); returns the next free row. `label` adds the margin
    once the deal is scored."""
    for seat in range(ws[layout.R_PLAYERS]):
        if row >= end:
            return row
        features(ws, seat)
        rows[row * ROW] = 1
        rows[row * ROW + 1] = seat
        for k in range(N_FEATURES):
            rows[row * ROW + 2 + k] = ws[VALUE_FEATURES + k]
        row += 1
    return row


@kernel
def label(ws: WsPointer, rows: np.ndarray, first: np.int64, end: np.int64) -> None:
    """The scored deal's margin for each seat's recorded rows ``first .. end``."""
    for row in range(first, end):
        if rows[row * ROW]:
            rows[row * ROW + ROW - 1] = margin(ws, rows[row * ROW + 1])


def predict(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """`value_of` in numpy: the values of many rounds' ends (``rows``: features, one row each)
    by ``weights`` (`N_WEIGHTS` floats, the workspace's order)."""
    w = np.asarray(weights, dtype=float)
    x = (rows - w[_MEAN:_SCALE]) / w[_SCALE:_HIDDEN_W]
    hidden = np.tanh(x @ w[_HIDDEN_W:_HIDDEN_B].reshape(HIDDEN, N_FEATURES).T + w[_HIDDEN_B:_OUT_W])
    return rows[:, 0] + w[_OUT_B] + x @ w[_LINEAR_W:_OUT_B] + hidden @ w[_OUT_W:_LINEAR_W]


def pack(
    mean: np.ndarray,
    scale: np.ndarray,
    hidden_w: np.ndarray,
    hidden_b: np.ndarray,
    out_w: np.ndarray,
    linear_w: np.ndarray,
    out_b: float,
) -> np.ndarray:
    """The model's parts as the `N_WEIGHTS` floats of a file, in the workspace's order."""
    return np.concatenate([mean, scale, np.ravel(hidden_w), hidden_b, out_w, linear_w, [out_b]])


def rows_per_deal(rules: Rules) -> int:
    """Room for every round's end of a deal, a row per seat."""
    return (rules.deck_size // (rules.players * rules.hand_cards) + 1) * rules.players


# --- the reference engine's twin ----------------------------------------------------------------


def python_features(state: DealState, seat: int) -> tuple[int, ...]:
    """`features` computed from the reference engine's state at a round's end (two players)."""
    from simcasino.reference.deal import score_deal as reference_score

    rules, n = state.rules, state.rules.players
    result = reference_score(rules, state.tally, state.carry_in).seats
    other = (seat + 1) % n
    ours, theirs = result[seat], result[other]
    mine, best = ours.points, theirs.points
    loose = [c for c in range(rules.deck_size) if c not in state.tally.owner]
    table_cards = [c for item in state.table for c in item_cards(item)]
    last = state.tally.last_capturer
    return (
        best - mine if rules.low_wins else mine - best,
        ours.cards - theirs.cards,
        ours.spades - theirs.spades,
        len(loose),
        sum(is_spade(c) for c in loose),
        sum(rules.card_points(c) for c in loose),
        sum(rules.card_points(c) for c in table_cards),
        len(state.table),
        len(state.deck) - state.next_card,
        int(seat == (state.dealer + 1) % n),
        0 if last < 0 else (1 if last == seat else -1),
        ours.tabbes - theirs.tabbes,
    )


# --- the file ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """A learned value: its weights by name (`N_WEIGHTS` floats in the workspace's order) and
    where it came from."""

    rules: Rules
    weights: tuple[float, ...]
    made: dict[str, Any]  # commit, seed, deals, held-out error ...

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_table(),
            "players": self.rules.players,
            "digest": rules_digest(self.rules),
            "features": list(FEATURES),
            "hidden": HIDDEN,
            "weights": list(self.weights),
            "made": self.made,
        }

    def save(self, path: Path) -> Path:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return path

    def fixed(self) -> np.ndarray:
        """The weights as the kernel reads them."""
        return np.round(np.asarray(self.weights) * FIXED).astype(np.int64)

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """The values of rounds' ends (feature rows) as the kernel computes them, from the
        fixed-point weights it reads."""
        return predict(self.fixed() / FIXED, rows)


def rules_digest(rules: Rules) -> str:
    """What a value is learned for: every knob the kernel reads, the player count included."""
    return hashlib.sha256(rules.to_array().tobytes()).hexdigest()[:16]


def read(path: Path) -> Value:
    """A value file; ValueError in one line if it is not one."""
    try:
        data = json.loads(Path(path).read_text())
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError("not a round value file")
        if (
            tuple(data["features"]) != FEATURES
            or data["hidden"] != HIDDEN
            or len(data["weights"]) != N_WEIGHTS
        ):
            raise ValueError("made for other features than this version's")
        from simcasino.core.rules import from_table

        rules = from_table(data["rules"]).replace(players=int(data["players"]))
        return Value(rules, tuple(float(w) for w in data["weights"]), dict(data.get("made", {})))
    except (OSError, KeyError, TypeError, json.JSONDecodeError, ValueError) as err:
        raise ValueError(f"value file {path}: {err}") from None


def load(path: Path, rules: Rules) -> Value:
    """The value in ``path`` for a table of ``rules``; ValueError in one line when it was made
    for other rules or another player count (its weights would mean nothing there)."""
    value = read(path)
    if rules_digest(value.rules) != rules_digest(rules):
        raise ValueError(
            f"value file {path} was learned for {value.rules.name}, {value.rules.players} players "
            f"(rules digest {rules_digest(value.rules)}); this table plays {rules.name}, "
            f"{rules.players} players with other rules ({rules_digest(rules)})"
        )
    return value


@functools.lru_cache(maxsize=32)
def value_for(rules: Rules) -> Value | None:
    """The value a table of ``rules`` plays with: the file named by SIMCASINO_VALUE (refused for
    other rules), else the shipped file made for exactly these rules, else None."""
    own = os.environ.get(ENV_FILE)
    if own:
        return load(Path(own), rules)
    digest = rules_digest(rules)
    for path in sorted(VALUES.glob("*.json")):
        if json.loads(path.read_text()).get("digest") == digest:
            return load(path, rules)
    return None


_trying: list[Value] = []  # `trying`: a value being learned, played before the table's own


@contextlib.contextmanager
def trying(candidate: Value | None) -> Iterator[None]:
    """Tables of the candidate's rules play with it (in this process) while the block runs:
    how `simcasino.learn` plays its own last fit; None: the table's value as usual."""
    _trying[:] = [candidate] if candidate is not None else []
    try:
        yield
    finally:
        _trying.clear()


def load_into(workspace: np.ndarray, rules: Rules) -> None:
    """The table's value, if it has one, into the workspace the kernel reads it from."""
    tried = [v for v in _trying if rules_digest(v.rules) == rules_digest(rules)]
    value = tried[0] if tried else value_for(rules) if rules.players == 2 else None
    if value is not None:
        workspace[VALUE_WEIGHTS : VALUE_WEIGHTS + N_WEIGHTS] = value.fixed()
        workspace[VALUE_ON] = 1
