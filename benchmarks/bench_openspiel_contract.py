"""OpenSpiel's contract held over many deals: no exception, no return past the declared bounds.

    pip install -e '.[openspiel]'
    python benchmarks/bench_openspiel_contract.py                 # 1,000 deals a preset, 3 bot deals each
    python benchmarks/bench_openspiel_contract.py --deals 50 --bot-deals 1

Why here and not in the tests: uniformly random actions reach the rare positions (a table too
large to list its moves, which ends the deal: docs/interop.md, Limits) only over thousands of
deals, and OpenSpiel's bots play whole deals of playouts, minutes a preset. For every preset it
plays ``--deals`` deals by random actions, OpenSpiel's ``RandomRolloutEvaluator`` valuing one
position in ``--every`` (a whole random playout from there), and ``--bot-deals`` whole deals of
``MCTSBot`` and of ``ISMCTSBot`` (``--simulations`` a step) against each other; it counts the
deals cut short by a too-large position, the longest deal in actions against
``max_game_length``, and the lowest and highest return against ``min_utility`` and
``max_utility``. Any exception stops it with a traceback. tests/interop/test_interop_openspiel.py
holds a few deals of the same on every preset.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from simcasino.core.rules import PRESETS
from simcasino.interop import openspiel_game


def play(game: pyspiel.Game, rng: np.random.RandomState, choose, evaluator, every: int) -> pyspiel.State:
    """One deal: chance by its odds, each decision by ``choose``, the evaluator on one position in ``every``."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if evaluator is not None and rng.randint(every) == 0:
            evaluator.evaluate(state)
        state.apply_action(choose(state))
    return state


def sweep(preset: str, deals: int, every: int, bot_deals: int, simulations: int, seed: int) -> str:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"preset": preset})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    start, lows, highs, longest, cut = time.process_time(), [], [], 0, 0
    finished = [play(game, rng, lambda s: int(rng.choice(s.legal_actions())), evaluator, every) for _ in range(deals)]
    bots = [mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng),
            ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)]
    for _ in range(bot_deals):
        finished.append(play(game, rng, lambda s: bots[s.current_player() % 2].step(s), None, every))
    for state in finished:
        lows.append(min(state.returns()))
        highs.append(max(state.returns()))
        longest = max(longest, len(state.history()) - game.max_chance_nodes_in_history())
        cut += bool(state.cut_short)
    assert game.min_utility() <= min(lows) and max(highs) <= game.max_utility()
    assert longest <= game.max_game_length()
    return (f"{preset:15} {deals:6,} random + {bot_deals} bot deals: returns [{min(lows):g}, {max(highs):g}] within "
            f"[{game.min_utility():g}, {game.max_utility():g}]; longest {longest} actions of "
            f"{game.max_game_length()}; {cut} cut short by a too-large position; "
            f"{time.process_time() - start:,.0f} s of CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="random deals a preset (default 1,000)")
    parser.add_argument("--every", type=int, default=10, help="the evaluator on one position in this many")
    parser.add_argument("--bot-deals", type=int, default=3, help="whole deals of MCTSBot against ISMCTSBot")
    parser.add_argument("--simulations", type=int, default=10, help="the bots' simulations a step")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--presets", nargs="*", default=list(PRESETS))
    args = parser.parse_args()
    for preset in args.presets:
        print(sweep(preset, args.deals, args.every, args.bot_deals, args.simulations, args.seed), flush=True)


if __name__ == "__main__":
    main()
