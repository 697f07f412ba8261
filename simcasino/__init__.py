"""simcasino: simulate Nordic Kasino by the million and measure which tactics win points.

Public API::

    import simcasino
    simcasino.capture_options("10H", ["2C", "3C", "5C", "7C"])
    frame = simcasino.simulate(rules="finnish", strategies=("greedy", "random"), deals=10_000, seed=1)
    games = simcasino.play_games(rules="swedish", strategies=("greedy", "greedy"), games=1000, seed=1)
    rules = simcasino.Rules.preset("finnish").replace(players=3, target=21)
    simcasino.compare("greedy", "random", rules="swedish", players=2, deals=10_000, seed=1)
"""

__version__ = "0.1.0"  # before the imports: the experiment store records it

from simcasino import _jit_cache  # noqa: F401,E402  (first: sets numba's cache folder)
from simcasino.captures import capture_options
from simcasino.rules import PRESETS, Rules
from simcasino.simulate import play_games, simulate
from simcasino.experiment import compare  # noqa: E402

__all__ = ["PRESETS", "Rules", "capture_options", "compare", "play_games", "simulate", "__version__"]
