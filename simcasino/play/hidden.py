"""What the referee knows that a seat's view leaves out: the other hands, the stock, the
deal's history. The kernel's position API (`simcasino.loop.position`) needs them to load a
position, both for a bot's move and for the judge's verdict in `review`.

Why they are worked out here, from the deck and the decisions: the reference engine keeps
its deal private and hands each strategy only its view. The referee knows the deck (it
shuffled it), so the stock is its tail; every seat's hand is seen whole at that seat's own
decisions; a seat that has not played yet this round holds the cards of the round not
accounted for. Which of those lie in which such hand is left to the order of the deck: no
fair player reads them (the search deals its own worlds of the unseen cards), and where it
matters, with two players and the stock empty, only one such hand is left, so it is exact.
"""

from __future__ import annotations

from collections.abc import Sequence

from simcasino.core.protocol import Move, View
from simcasino.core.rules import Rules
from simcasino.core.table import item_cards
from simcasino.loop.position import DealHistory, SeenTurn


class DealTracker:
    """The hidden state of one deal, kept up to date from every decision made in it."""

    def __init__(self, rules: Rules, deck: Sequence[int], dealer: int, start_scores: Sequence[int]) -> None:
        self.rules, self.deck, self.dealer = rules, list(deck), dealer
        self.start_scores = list(start_scores)
        self.known: dict[int, list[int]] = {}  # seat -> its hand, seen at its last decision this round
        self.round_stock = -1  # the stock left when this round was dealt
        self.round_start = 0  # where this round's moves begin in `moves`
        self.moves: list[tuple[View, Move]] = []  # every move as made (§6 Misère: the pick replaces the capture)

    def note(self, view: View, move: Move) -> None:
        """A decision was made: the seat's hand is known; a Misère pick replaces the mover's capture."""
        if view.chooser_for >= 0:
            self.moves[-1] = (self.moves[-1][0], move)
            return
        self._follow_round(view)
        hand = list(view.hand)
        hand.remove(move.card)
        self.known[view.seat] = hand
        self.moves.append((view, move))

    def hidden(self, view: View) -> tuple[list[list[int]], list[int]]:
        """Every seat's hand (``view``'s own included) and the stock in dealing order."""
        self._follow_round(view)
        stock = self.deck[len(self.deck) - view.stock_left:]
        hands = {seat: list(hand) for seat, hand in self.known.items()}
        hands[view.seat] = list(view.hand)
        accounted = set(stock) | {c for hand in hands.values() for c in hand}
        accounted |= {c for item in view.table for c in item_cards(item)}
        accounted |= {card for card, owner in enumerate(view.captured_by) if owner >= 0}
        pool = [c for c in self.deck if c not in accounted]
        waiting = [seat for seat in self.leader_order() if seat not in hands]
        for i, seat in enumerate(waiting):
            share = len(pool) // len(waiting) + (i < len(pool) % len(waiting))
            hands[seat], pool = pool[:share], pool[share:]
        return [hands[seat] for seat in range(self.rules.players)], stock

    def history(self, view: View) -> DealHistory:
        """What scoring needs of the deal so far: the dealer, the last capturer, the sweeps
        (R-TABBE: those that scored, §6 Misère's double sweep counted twice) and each seat's
        immediate points (§5 Finnish: its score now less its score when the deal began)."""
        n = self.rules.players
        last, sweeps, scored = -1, [0] * n, [0] * n
        for before, move in self.moves:
            if not move.is_capture:
                continue
            last = before.seat
            if move.mask == (1 << len(before.table)) - 1:
                sweeps[before.seat] += 1
                if before.sweep_scores:
                    scored[before.seat] += 2 if self.rules.double_sweep and len(before.table) == 1 else 1
        immediate = tuple(now - then for now, then in zip(view.scores, self.start_scores))
        return DealHistory(self.dealer, last, tuple(sweeps), tuple(scored), immediate)

    def turns(self, view: View) -> list[SeenTurn]:
        """The other seats' turns this round as ``view``'s seat saw them (whether each captured,
        the table it faced): what the search's belief reads (`strategies.belief`). None under
        §6 Builds, whose tables the belief does not follow."""
        self._follow_round(view)
        if self.rules.builds:
            return []
        return [SeenTurn(before.seat, move.is_capture, tuple(before.table))
                for before, move in self.moves[self.round_start:] if before.seat != view.seat]

    def leader_order(self) -> list[int]:
        """R-ROTATE: the seats in turn order, the one left of the dealer first."""
        n = self.rules.players
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _follow_round(self, view: View) -> None:
        """A new round was dealt (the stock shrank): no hand is known any more."""
        if view.stock_left != self.round_stock:
            self.known, self.round_stock, self.round_start = {}, view.stock_left, len(self.moves)
