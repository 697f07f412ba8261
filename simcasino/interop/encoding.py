"""What a seat observes of a deal, as text and as tensors: the observation (the table as it
is now) and the information state (everything the seat has seen, in order).

Why both: OpenSpiel distinguishes the two (ISMCTS keys its tree on the information state,
learners read tensors), and PettingZoo's observation is the tensor of the observation. Both
are made only of what the seat may see — its own hand, the table, everything played and
captured, who played what, the scores, the stock's size, the card a seat has chosen to
play — and where the mover is in picking that card's move only to the mover: a twin deal
that differs in cards the seat has not seen looks the same to it at every step
(tests/interop/test_interop_leaks.py). Identical cards of two decks are shown alike (by kind, in
kind order). Seats are counted from the observer (0: itself, 1: the next seat, ...), so one
learner serves every seat. Card planes are per card kind (0-51, `core.cards`) and hold
counts (two decks: 0-2).

The tensor layout has a version, `LAYOUT_VERSION` (docs/interop.md says what changed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcasino.core.cards import KINDS, card_code
from simcasino.core.notation import move_name
from simcasino.core.protocol import Move
from simcasino.core.rules import Rules
from simcasino.core.table import is_build, item_cards, item_code
from simcasino.interop.actions import OPTIONS, PendingMove
from simcasino.interop.outcome import point_range
from simcasino.reference.state import Action

# 2: 16 option rows (a move or a block of moves), "blocks" for "more"; options to the mover only
LAYOUT_VERSION = 2
MAX_VALUE = 16  # the highest capture value (R-VAL-FI: 10♦ from hand)
OPTION_FEATURES = (
    KINDS + 4
)  # the cards a move addresses, trail / capture / build, the build's value
PLAY_FEATURES = (
    KINDS * 2 + 6
)  # the card, what it addressed, trail / capture / build / waits / picked, value
SCALARS = (
    "stock",
    "last_round",
    "sweep_scores",
    "blocks",
)  # the deal's public numbers; options in blocks


@dataclass(frozen=True)
class ObservationKind:
    """Which observation: ``recall`` the whole history (the information state), ``private``
    "own" (the seat's hand), "none" (public information only) or "all" (every hand)."""

    recall: bool = False
    private: str = "own"


def pieces(rules: Rules, spec: ObservationKind) -> list[tuple[str, tuple[int, ...]]]:
    """The named parts of a tensor and their shapes (OpenSpiel's observer dict, in order)."""
    n = rules.players
    hands = {"own": [("hand", (KINDS,))], "none": [], "all": [("hands", (n, KINDS))]}[spec.private]
    parts = hands + [
        ("table", (KINDS,)),
        ("builds", (KINDS,)),
        ("build_values", (n, MAX_VALUE + 1)),
        ("piles", (n, KINDS)),
        ("chosen", (KINDS,)),
        ("options", (OPTIONS, OPTION_FEATURES)),
        ("phase", (3,)),
        ("to_move", (n,)),
        ("hand_sizes", (n,)),
        ("scores", (n,)),
        ("deal", (len(SCALARS),)),
    ]
    return parts + (
        [("plays", (rules.deck_size - rules.table_cards, PLAY_FEATURES))] if spec.recall else []
    )


class Tensor:
    """A flat float32 tensor with a named view of each part (`pieces`), filled by `fill`."""

    def __init__(self, rules: Rules, spec: ObservationKind) -> None:
        self.rules, self.spec = rules, spec
        shapes = pieces(rules, spec)
        self.flat = np.zeros(sum(int(np.prod(shape)) for _, shape in shapes), np.float32)
        self.parts: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in shapes:
            size = int(np.prod(shape))
            self.parts[name] = self.flat[start : start + size].reshape(shape)
            start += size

    def fill(self, decision: PendingMove, seat: int) -> np.ndarray:
        """The tensor of ``decision`` as ``seat`` sees it (the same array, refilled)."""
        deal, parts, n = decision.deal, self.parts, self.rules.players
        self.flat.fill(0)
        if "hand" in parts:
            _count(parts["hand"], deal.hands[seat])
        for s in range(n) if "hands" in parts else ():
            _count(parts["hands"][(s - seat) % n], deal.hands[s])
        for item in deal.table:
            if is_build(item):
                _count(parts["builds"], item.cards)
                parts["build_values"][(item.owner - seat) % n, item.value] += 1
            else:
                parts["table"][item % KINDS] += 1
        for card, owner in deal.tally.owner.items():
            parts["piles"][(owner - seat) % n, card % KINDS] += 1
        self._fill_decision(decision, seat)
        if "plays" in parts:
            self._fill_plays(deal.history, seat)
        return self.flat

    def _fill_decision(self, decision: PendingMove, seat: int) -> None:
        deal, parts, n = decision.deal, self.parts, self.rules.players
        phase = 2 if deal.pending is not None else int(decision.card >= 0)
        if not deal.is_over:
            parts["phase"][phase] = 1
            parts["to_move"][(deal.to_move - seat) % n] = 1
        if decision.choosing_option and not deal.is_over:
            parts["chosen"][decision.chosen] = 1
            if sees_options(decision, seat, self.spec):
                options, blocks = decision.options(), decision.blocks()
                for row, (low, high) in zip(parts["options"], blocks):
                    if high > low:
                        _describe(row, options[low], deal.table)
                parts["deal"][3] = blocks[0][1] - blocks[0][0] > 1
        scores = deal.live_scores()
        for s in range(n):
            parts["hand_sizes"][(s - seat) % n] = len(deal.hands[s]) / self.rules.hand_cards
            parts["scores"][(s - seat) % n] = scores[s] / self.rules.target
        parts["deal"][:3] = (
            len(deal.stock) / self.rules.deck_size,
            deal.last_round,
            deal.sweep_scores(),
        )

    def _fill_plays(self, history: list[Action], seat: int) -> None:
        """One row per card played: the card, what it took (or the item a build went onto),
        who played it, how, and a §6 Misère pick (the row of the card it picked for)."""
        plays, n, row = self.parts["plays"], self.rules.players, -1
        for action in history:
            row += not action.pick
            features = plays[row]
            features[:] = 0
            features[action.move.card % KINDS] = 1
            _describe(features[KINDS:], action.move, action.table, flags=False)
            kind = 3 if action.pending else int(action.move.kind)
            features[2 * KINDS + kind] = 1
            features[2 * KINDS + 4] = action.pick
            features[2 * KINDS + 5] = (action.player - seat) % n / n


def observation_bounds(
    rules: Rules, spec: ObservationKind, deals: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and the highest value of every entry of the tensor, true bounds for an
    episode of ``deals`` deals at most from a game's start (`interop.episode`): the
    observation space's ``low`` and ``high``. Card planes count up to the number of decks; a
    seat's builds of one value are at most half the deck (a build holds two cards or more);
    the scores, game points over the target, stay within ``deals`` times what one side can
    score in a deal (`outcome.point_range`, whose fewest is 0 or less: penalties make scores
    negative, and a deal's points can pass the target); the rest are flags and fractions of
    at most 1 (a history row's seat: at most (n - 1) / n)."""
    low, high = Tensor(rules, spec), Tensor(rules, spec)
    high.flat.fill(1)
    for name in ("hand", "hands", "table", "builds", "piles"):
        if name in high.parts:
            high.parts[name][:] = rules.decks
    high.parts["options"][:, :KINDS] = rules.decks
    high.parts["build_values"][:] = rules.deck_size // 2
    fewest, most = point_range(rules)
    low.parts["scores"][:] = deals * fewest / rules.target
    high.parts["scores"][:] = deals * most / rules.target
    if "plays" in high.parts:
        high.parts["plays"][:, KINDS : 2 * KINDS] = rules.decks
        high.parts["plays"][:, 2 * KINDS + 5] = (rules.players - 1) / rules.players
    return low.flat, high.flat


def _count(plane: np.ndarray, cards: object) -> None:
    for card in cards:
        plane[card % KINDS] += 1


def _describe(row: np.ndarray, move: Move, table: tuple, flags: bool = True) -> None:
    """A move's cards addressed (captured items, or the item a build goes onto) into
    ``row[:52]``; with ``flags`` its kind after them and a build's value last."""
    if move.is_build:
        _count(row[:KINDS], item_cards(table[move.target]))
    else:
        _count(
            row[:KINDS],
            (c for i, item in enumerate(table) if move.taken >> i & 1 for c in item_cards(item)),
        )
    if flags:
        row[KINDS + int(move.kind)] = 1
        row[KINDS + 3] = move.value / MAX_VALUE


# --- text ------------------------------------------------------------------------------------


def observation_text(decision: PendingMove, seat: int, spec: ObservationKind) -> str:
    """The observation (or, with ``spec.recall``, the information state) as text."""
    deal, n = decision.deal, decision.deal.rules.players
    lines = [f"seat {seat} of {n}"]
    if spec.recall:
        lines += history_lines(decision, seat, spec)
    hands = {"own": [seat], "none": [], "all": range(n)}[spec.private]
    lines += [_listed(f"hand {s}:", deal.hands[s]) for s in hands]
    lines += [
        f"hand sizes: {' '.join(str(len(h)) for h in deal.hands)}",
        " ".join(["table:", *map(item_code, deal.table)]),
        *(
            _listed(f"pile {s}:", [c for c, o in deal.tally.owner.items() if o == s])
            for s in range(n)
        ),
        f"game points: {' '.join(map(str, deal.live_scores()))}",
        f"stock {len(deal.stock)}{', last round' if deal.last_round else ''}"
        f"{'' if deal.sweep_scores() else ', sweeps do not score'}",
    ]
    return "\n".join(lines + decision_lines(decision, sees_options(decision, seat, spec)))


def sees_options(decision: PendingMove, seat: int, spec: ObservationKind) -> bool:
    """Does ``seat`` see the options on show? Only the seat choosing (or a spec that sees
    every hand): how far the mover has narrowed them is its own business, and the public
    observer (``private="none"``) is no seat."""
    return (seat == decision.deal.to_move and spec.private == "own") or spec.private == "all"


def decision_lines(decision: PendingMove, options: bool = True) -> list[str]:
    """Whose turn, the card chosen (or a §6 Misère capture waiting for its pick) and, with
    ``options``, the options on show (each option action's move, or its block of moves)."""
    deal = decision.deal
    if deal.is_over:
        return [
            f"the deal is over: points {' '.join(str(seat.points) for seat in deal.result().seats)}"
        ]
    lines = [f"to move: seat {deal.to_move}"]
    if decision.choosing_option:
        verb = "picks for" if deal.pending is not None else "chose"
        lines.append(
            f"{verb} {card_code(decision.chosen)}{': ' + option_text(decision) if options else ''}"
        )
    return lines


def option_text(decision: PendingMove) -> str:
    """The option actions' moves in words (a block as its first and last move)."""
    moves, table = decision.options(), decision.deal.table
    shown = [(low, high) for low, high in decision.blocks() if high > low]
    if shown[-1][1] - shown[0][0] == len(shown):
        return "; ".join(move_name(moves[low], table) for low, _ in shown)
    return "; ".join(
        f"[{move_name(moves[low], table)} .. {move_name(moves[high - 1], table)}]"
        for low, high in shown
    )


def history_lines(decision: PendingMove, seat: int, spec: ObservationKind) -> list[str]:
    """What ``seat`` saw happen: the table dealt, the cards it was dealt each round, and every
    play in order (a §6 Misère capture waiting for its pick, and the pick)."""
    deal = decision.deal
    first_table = deal.history[0].table if deal.history else tuple(deal.table)
    lines = [" ".join(["table dealt:", *map(item_code, first_table)])]
    own = {"own": [seat], "none": [], "all": range(deal.rules.players)}[spec.private]
    dealt_round = 0
    for action in deal.history:
        while dealt_round < action.round:
            dealt_round += 1
            lines += [
                _listed(f"round {dealt_round} dealt to {s}:", _dealt(deal, s, dealt_round))
                for s in own
            ]
        note = (
            f" (picked by {action.seat})"
            if action.pick
            else " (waits for a pick)"
            if action.pending
            else ""
        )
        lines.append(f"{action.player}: {move_name(action.move, action.table)}{note}")
    while dealt_round < deal.rounds:
        dealt_round += 1
        lines += [
            _listed(f"round {dealt_round} dealt to {s}:", _dealt(deal, s, dealt_round)) for s in own
        ]
    return lines


def _dealt(deal: object, seat: int, round_: int) -> list[int]:
    """The cards ``seat`` was dealt in round ``round_``: those it played in that round, and
    its hand if that round is the one being played (a card awaiting its §6 Misère pick is
    still in hand)."""
    played = [
        a.move.card
        for a in deal.history
        if a.player == seat and a.round == round_ and not a.pending
    ]
    held = deal.hands[seat] if round_ == deal.rounds else []
    return played + list(held)


def _listed(label: str, cards: object) -> str:
    """``label`` and the cards' codes after it in kind order (the dealing order is not shown,
    and identical cards of two decks are alike; no trailing space when there are none)."""
    return " ".join([label, *(card_code(c) for c in sorted(c % KINDS for c in cards))])
