"""What the player at the terminal sees: the position at their turn, every other move as it
is made, the score sheet after each deal.

Plain click, no terminal library: the screen is a few lines of text redrawn at each turn,
which click's ``style`` colours and ``echo`` strips of colour when the output is not a
terminal; ``NO_COLOR`` turns colour off too (`wants_colour`). Cards are written as a player
types them (``QD``, ``10H``), hearts and diamonds red where there is colour.

What a careful player would remember is shown with the table: the cards gone to the piles,
by suit, and how many cards are still unseen.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

import click

from simcasino.core.cards import DIAMONDS, HEARTS, SUITS, card_code, rank_of, suit_of
from simcasino.core.columns import COLUMNS
from simcasino.core.notation import move_name
from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.core.table import Build, is_build, value_name
from simcasino.reference.deal import DealResult
from simcasino.reference.state import DealState

# the score sheet's columns (`reference.deal.COLUMNS`) and their headings
SHEET_COLUMNS = {
    "points": "points",
    "cards": "cards",
    "spades": "spades",
    "aces": "aces",
    "big_kasino": "10D",
    "small_kasino": "2S",
    "sistan": "sistan",
    "tabbes": "tabbes",
}


def wants_colour() -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


class Screen:
    """Draws the game for the seats' labels (``you`` for a person), in colour or not.
    Also the game's `Watcher`: it shows the moves as they are made and the score sheets."""

    def __init__(
        self, rules: Rules, labels: Sequence[str], colour: bool, echo: Callable[[str], None]
    ) -> None:
        self.rules, self.labels, self.colour, self.echo = rules, list(labels), colour, echo
        self.deal = 0

    # --- the Watcher side -------------------------------------------------------------------

    def deal_started(self, number: int, dealer: int, scores: list[int]) -> None:
        self.deal = number
        self.echo("")
        self.echo(
            self.bold(
                f"deal {number + 1}: {self.seat(dealer)} deals, {self.seat(self.next(dealer))} "
                "leads"
            )
        )

    def moved(self, view: View, move: Move, state: DealState, replayed: bool) -> None:
        if replayed:
            return
        if (
            view.chooser_for >= 0
        ):  # §6 Misère: the capture the mover's card makes, picked by this seat
            self.echo(
                f"  {self.seat(view.seat)} picks for {self.seat(view.chooser_for)}: "
                f"{self.describe(view, move)}"
            )
        else:
            self.echo(f"  {self.seat(view.seat)}: {self.describe(view, move)}")

    def deal_over(self, number: int, result: DealResult, scores: list[int]) -> None:
        for line in self.score_sheet(number, result, scores):
            self.echo(line)

    # --- the position ---------------------------------------------------------------------------

    def position(self, view: View, scored: Sequence[int]) -> list[str]:
        """The position at ``view``'s turn: whose turn, the scores, the table, the piles (with
        the tabbes each seat ``scored`` so far), the cards gone, the hand and the numbered
        legal moves."""
        rules = self.rules
        lines = [
            self.bold(
                f"— deal {self.deal + 1}, round {self.round(view)} of {rules.deal_rounds}"
                f"{' (last)' if view.last_round else ''}: {self.seat(view.seat)} to play; "
                f"{view.stock_left} cards in the stock —"
            ),
            "score   "
            + self.scores(view.scores)
            + f"   (to {rules.target}{', fewest win' if rules.low_wins else ''}; "
            f"{self.when_scored()})",
            "table   " + (" ".join(self.item(i) for i in view.table) or "(empty)"),
            "piles   "
            + " · ".join(self.pile(view, seat, scored[seat]) for seat in range(rules.players)),
            "gone    " + self.gone(view),
            "hand    " + " ".join(self.card(c) for c in view.hand),
        ]
        lines += [
            f"  {i:>2}  {self.describe(view, move)}" for i, move in enumerate(listed_moves(view), 1)
        ]
        return lines

    def when_scored(self) -> str:
        """When the score line takes in this deal's points (§5: Finnish immediate scoring
        counts aces and kasinos as they are captured, the rest at the deal's end)."""
        if self.rules.immediate_scoring:
            return "aces and kasinos count when taken, the rest at the deal's end"
        return "this deal's points count at its end"

    def pile(self, view: View, seat: int, tabbes: int) -> str:
        """A seat's pile: its cards, spades, and points so far (aces, kasinos and the like,
        tabbes)."""
        cards = [card for card, owner in enumerate(view.captured_by) if owner == seat]
        spades = sum(suit_of(c) == 0 for c in cards)
        points = sum(self.rules.card_points(c) for c in cards) + tabbes * self.rules.tabbe_points
        return f"{self.seat(seat)} {len(cards)} cards, {spades} spades, {points} pts"

    def gone(self, view: View) -> str:
        """The cards in the piles by suit (ranks in order), and how many cards are unseen."""
        gone = sorted(
            (card for card, owner in enumerate(view.captured_by) if owner >= 0), key=rank_of
        )
        suits = []
        for suit, letter in enumerate(SUITS):
            ranks = [card_code(c)[:-1] for c in gone if suit_of(c) == suit]
            suits.append(self.paint(letter, suit) + " " + (" ".join(ranks) or "-"))
        on_table = sum(len(i.cards) if is_build(i) else 1 for i in view.table)
        unseen = self.rules.deck_size - len(gone) - on_table - len(view.hand)
        return "  ".join(suits) + f"   (unseen: {unseen})"

    def round(self, view: View) -> int:
        rules = self.rules
        dealt = rules.deck_size - rules.table_cards - view.stock_left
        return -(-dealt // (rules.players * rules.hand_cards))

    # --- moves and sheets -----------------------------------------------------------------------

    def describe(self, view: View, move: Move) -> str:
        """A move's name (`core.notation`), its cards painted, a sweep marked with the rule
        book's word for it (R-TABBE), as replay marks it."""
        tabbe = (
            " — tabbe" + ("" if view.sweep_scores else " (no point)")
            if move.sweeps(view.table)
            else ""
        )
        return move_name(move, view.table, self.card) + tabbe

    def choices(self, view: View) -> list[str]:
        """A §6 Misère pick: the captures the mover's card may make, numbered."""
        mover = self.seat(view.chooser_for)
        lines = [
            self.bold(
                f"{mover} plays {self.card(view.moves[0].card)}: you pick which capture it makes"
            )
        ]
        lines += [f"  {i:>2}  {self.describe(view, move)}" for i, move in enumerate(view.moves, 1)]
        return lines

    def score_sheet(self, number: int, result: DealResult, scores: list[int]) -> list[str]:
        """Each seat's counts and points in the deal, and the game score after it."""
        if result.winner >= 0:
            return [
                self.bold(
                    f"{self.seat(result.winner)} reached {self.rules.target} mid-deal and wins"
                ),
                "score   " + self.scores(scores),
            ]
        index = [COLUMNS.index(c) for c in SHEET_COLUMNS]
        width = max(len(self.row_label(s)) for s in range(self.rules.players))
        lines = [
            self.bold(f"end of deal {number + 1}"),
            " " * width + "".join(f"{h:>7}" for h in SHEET_COLUMNS.values()) + f"{'game':>7}",
        ]
        for seat, row in enumerate(result.seats):
            values = row.row()
            lines.append(
                f"{self.row_label(seat):<{width}}"
                + "".join(f"{values[i]:>7}" for i in index)
                + f"{scores[seat]:>7}"
            )
        return lines

    # --- words and colours ------------------------------------------------------------------------

    def scores(self, scores: Sequence[int]) -> str:
        """The game score of each scoring unit: a player, or (§6 Partnerships) a team."""
        rules = self.rules
        if not rules.partnership:
            return " · ".join(f"{self.seat(s)} {scores[s]}" for s in range(rules.players))
        teams = [
            [s for s in range(rules.players) if s % rules.units == u] for u in range(rules.units)
        ]
        return " · ".join(
            f"team {u} (seats {', '.join(map(str, team))}) {scores[u]}"
            for u, team in enumerate(teams)
        )

    def row_label(self, seat: int) -> str:
        return f"seat {seat} {self.labels[seat]}"

    def seat(self, seat: int) -> str:
        return f"seat {seat} ({self.labels[seat]})"

    def next(self, seat: int) -> int:
        return (seat + 1) % self.rules.players

    def card(self, card: int) -> str:
        return self.paint(card_code(card), suit_of(card))

    def item(self, item: int | Build) -> str:
        """A table item: a card, or a build ``[5H+7C=Q by seat 0]``."""
        if not is_build(item):
            return self.card(item)
        double = " double" if item.double else ""
        cards = "+".join(self.card(c) for c in item.cards)
        return f"[{cards}={value_name(item.value)}{double} by seat {item.owner}]"

    def paint(self, text: str, suit: int) -> str:
        if not self.colour:
            return text
        return click.style(text, fg="red" if suit in (HEARTS, DIAMONDS) else None, bold=True)

    def bold(self, text: str) -> str:
        return click.style(text, bold=True) if self.colour else text


def listed_moves(view: View) -> tuple[Move, ...]:
    """The legal moves as the screen numbers them: card by card in hand order, each card's
    captures and builds before its trail (the engines' own order, which the strategies and
    their seeds depend on, puts the trail first)."""
    return tuple(sorted(view.moves, key=lambda move: (move.hand_index, move.is_trail)))
