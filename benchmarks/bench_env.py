"""Environment steps a second for learners: random legal actions on one core.

    pip install -e '.[rl,openspiel,bench]'
    python benchmarks/bench_env.py            # 3 rounds of 3 s a row
    python benchmarks/bench_env.py --quick    # 1 round of 1 s

Why: a learner takes millions of steps, so the environment's speed bounds what can be trained;
RLCard publishes 6,600-14,000 steps a second for gin rummy, and the aim here is 20,000. Steps a
second depend on the machine and on what else it runs, so the last row plays RLCard's own gin
rummy (the ``bench`` extra) in the same run, the same way: the ratio of two rows is what
carries to another machine. Each row plays whole deals, a new deal on each reset, every action
drawn uniformly from the legal ones (`random.Random`, so the agent costs little), and counts
one step per action (a move is one action or two: the card, then its move). CPU time of this
process (one core), the best of the rounds. Rows: the PettingZoo AEC environment (an
observation vector and mask every step, as ``env.last()`` gives it), the OpenSpiel game (its
state's ``legal_actions`` and ``apply_action``, no observation), and the bare
`interop.actions.PendingMove` under both (the rules alone: the ceiling the interfaces pay their
observations and wrappers on).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from simcasino.core.limits import PositionTooLarge
from simcasino.core.rules import Rules
from simcasino.interop.actions import PendingMove
from simcasino.interop.lean import LeanDeal


def rate(play: Callable[[random.Random], int], seconds: float, rounds: int) -> float:
    """Steps a CPU second: the best of ``rounds`` rounds, each playing deals for ``seconds``."""
    best = 0.0
    for _ in range(rounds):
        rng, steps, start = random.Random(0), 0, time.process_time()
        while time.process_time() - start < seconds:
            try:
                steps += play(rng)
            except PositionTooLarge:  # a table too large to list, once in some 80,000 random deals: skip the deal
                continue
        best = max(best, steps / (time.process_time() - start))
    return best


def decision_deal(rules: Rules) -> Callable[[random.Random], int]:
    index = iter(range(10**9))

    def play(rng: random.Random) -> int:
        decision, steps = PendingMove(LeanDeal.new(rules, 1, next(index))), 0
        while not decision.deal.is_over:
            decision.apply(rng.choice(decision.legal_actions()))
            steps += 1
        return steps
    return play


def aec_deal(rules: Rules) -> Callable[[random.Random], int]:
    from simcasino.interop.pettingzoo_env import KasinoEnv

    env = KasinoEnv(rules)
    env.reset(seed=1)

    def play(rng: random.Random) -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else rng.choice(observation["action_mask"].nonzero()[0]))
            steps += 1
        return steps
    return play


def openspiel_deal(rules: Rules) -> Callable[[random.Random], int]:
    import pyspiel

    from simcasino.interop.openspiel_game import SHORT_NAME  # registers the game
    from simcasino.interop.parameters import params_of

    game = pyspiel.load_game(SHORT_NAME, params_of(rules))

    def play(rng: random.Random) -> int:
        state, steps = game.new_initial_state(), 0
        for card in rng.sample(range(rules.deck_size), rules.deck_size):  # chance: the deck, not counted
            state.apply_action(card)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps
    return play


def rlcard_gin_rummy() -> Callable[[random.Random], int]:
    """RLCard's gin rummy environment, a random legal action a step (its ``step`` also makes
    the next seat's observation, as the AEC row's ``last`` does)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": 0})

    def play(rng: random.Random) -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps
    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one round of one second a row")
    args = parser.parse_args()
    seconds, rounds = (1.0, 1) if args.quick else (3.0, 3)
    print(f"random legal actions, one core, best of {rounds} x {seconds:g} s (steps a CPU second)")
    for preset in ("swedish", "finnish"):
        rules = Rules.preset(preset)
        for name, make in (("PettingZoo AEC env", aec_deal), ("OpenSpiel game", openspiel_deal),
                           ("Decision (no observation)", decision_deal)):
            print(f"  {preset:8} {name:26} {rate(make(rules), seconds, rounds):>9,.0f}", flush=True)
    try:
        print(f"  {'RLCard':8} {'gin rummy (reference)':26} {rate(rlcard_gin_rummy(), seconds, rounds):>9,.0f}")
    except ImportError:
        print("  RLCard's gin rummy, the reference row: pip install -e '.[bench]'")


if __name__ == "__main__":
    main()
