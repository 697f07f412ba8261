"""The search's inference (`simcasino.strategies.search.inference`, ``search:infer=T``): each card's
likelihood from the others' moves under the softmax model of their play, held to the model
worked out in Python from the heuristic's plain-Python values; the worlds dealt by it; and
that it stays blind to where the hidden cards lie."""

from __future__ import annotations

import math
import random

import pytest
from helpers.cards import cards, codes
from helpers.hidden import chance_in_hand, hidden_cards
from helpers.kernel_probes import inferred
from helpers.positions import position

from simcasino.advice.sight import unseen_cards
from simcasino.core.cards import card_code
from simcasino.core.rules import Rules
from simcasino.strategies import parse_strategy
from simcasino.strategies.heuristic import Heuristic

SWEDISH = Rules.preset("swedish")
TEMPER = 0.5
INFER = parse_strategy(f"search:worlds=2,infer={TEMPER}")
# We hold three high cards on 10D 5C; seat 1 trails 4C, then 3H, passing up 10D (any ten takes
# it) twice and 5C (any five) once, with 5C 4C lying there at its second turn (a nine takes them)
VIEW = position(SWEDISH, "KH KD QH", "10D 5C")
ROUNDS = [[(cards("4C")[0], ())], [(cards("3H")[0], ())]]


def _deal(order: int) -> tuple[list[list[int]], list[int]]:
    """Seat 1 holds 4C 3H and two more of the hidden cards, the rest is the stock: in an order
    of their own for each ``order`` (where the hidden cards lie)."""
    rest = [c for c in hidden_cards(VIEW) if c not in cards("4C 3H")]
    random.Random(order).shuffle(rest)
    return [[], cards("4C 3H") + rest[:2]], rest[2:]


def _model(tables: list[list[int]], played: list[int]) -> dict[int, float]:
    """The module docstring's likelihood, from the plain-Python heuristic: per card c, over the
    turns it was hidden at (3H until seat 1 played it), minus log(1 + e^((u_c - u_o) / T)), u_o
    the value of the trail seat 1 made and u_c the best of c's moves, its hand those two cards
    on the table it faced."""
    heuristic, logs = Heuristic(), {}
    for turn, (table, card) in enumerate(zip(tables, played)):
        for other in (c for c in hidden_cards(VIEW) if c not in played[: turn + 1]):
            view = position(SWEDISH, " ".join(codes([card, other])), " ".join(codes(table)), seat=1)
            values = {move: heuristic.value(view, move, unseen_cards(view)) for move in view.moves}
            made = max(v for m, v in values.items() if m.card == card and not m.taken)
            best = max(v for m, v in values.items() if m.card == other)
            logs[other] = logs.get(other, 0.0) - math.log1p(math.exp((best - made) * 1e-6 / TEMPER))
    return logs


def test_each_cards_likelihood_is_the_softmax_models() -> None:
    """After seat 1 passed up 10D twice, the kernel's log-likelihood of every hidden card is the
    model's, worked out in Python; a ten (it would have taken 10D, two points) is all but ruled
    out, far below a card no better than the trail it made."""
    logs, tables, _, _ = inferred(VIEW, INFER, *_deal(0), ROUNDS)
    expected = _model(tables, cards("4C 3H"))
    assert logs[1] == pytest.approx({c: v for c, v in expected.items() if v}, abs=1e-5)
    tens = [logs[1][c] for c in cards("10S 10H 10C")]
    assert max(tens) < -10 and max(tens) < min(logs[1].get(c, 0.0) for c in cards("2H 7D")) - 5


def test_the_worlds_deal_each_hand_by_the_likelihood() -> None:
    """Over 3,000 worlds, seat 1's share of tens, of nines and of kings matches the law of
    hands weighed by the likelihood (`helpers.hidden.chance_in_hand`): tens almost never."""
    logs, _, _, worlds = inferred(VIEW, INFER, *_deal(0), ROUNDS, worlds=3000)
    unseen = [c for c in hidden_cards(VIEW) if c not in cards("4C 3H")]
    weights = [math.exp(logs[1].get(c, 0.0)) for c in unseen]
    held = [card for world in worlds for card in world[1]]
    for rank in ("10", "9", "K"):
        group = [i for i, c in enumerate(unseen) if card_code(c)[:-1] == rank]
        expected = sum(chance_in_hand(weights, 2, i) for i in group)
        seen = sum(card_code(c)[:-1] == rank for c in held) / len(worlds)
        assert seen == pytest.approx(expected, abs=4 * math.sqrt(expected / len(worlds)) + 1e-3)
    assert sum(card_code(c)[:-1] == "10" for c in held) / len(worlds) < 0.01


def test_inference_ignores_where_the_hidden_cards_lie() -> None:
    """Seat 1's unplayed cards and the stock dealt three ways: the same likelihoods, the same move."""
    seen = [inferred(VIEW, INFER, *_deal(order), ROUNDS)[::2] for order in range(3)]
    assert seen[0] == seen[1] == seen[2]


def test_inference_is_checked() -> None:
    with pytest.raises(ValueError, match="belief > 0 to infer"):
        parse_strategy("search:infer=0.5,belief=0").kernel_params()
    with pytest.raises(ValueError, match="infer >= 0"):
        parse_strategy("search:infer=-1").kernel_params()
