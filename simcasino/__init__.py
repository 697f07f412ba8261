"""simcasino: simulate Nordic Kasino by the million and measure which tactics win points.

Public API (each name is imported on first use, so ``import simcasino`` costs nothing)::

    import simcasino
    simcasino.capture_options("10H", ["2C", "3C", "5C", "7C"])
    frame = simcasino.simulate(rules="finnish", strategies=("greedy", "random"), deals=10_000,
                               seed=1)
    games = simcasino.play_games(rules="swedish", strategies=("greedy", "greedy"), games=1000,
                                 seed=1)
    rules = simcasino.Rules.preset("finnish").replace(players=3, target=21)
    simcasino.compare("greedy", "random", rules="swedish", players=2, decks=10_000, seed=1)
    state = simcasino.DealState.new(rules, seed=1, index=0)  # one deal, move by move
    state.apply(state.legal_moves()[0])

A strategy writer's names are here too: `Move` (and `MoveKind`), the `View` a strategy sees,
the `Stream` a strategy that draws is handed, the `Action` a move did, `move_name` and
`read_move` (a move in words and back), `card_code` and `card_codes`; `play_deal` plays a
`DealState` to its end with one strategy a seat.

The package is layered, data flowing down only (docs/architecture.md): cli → report, tune,
experiment → simulation, analyze → loop (the kernel's play loop) → strategies → engine (the
kernel's mechanics) and reference (the pure-Python oracle) → core.
"""

import importlib as _importlib

__version__ = "0.3.0"

_API = {
    "Action": "simcasino.reference.state",
    "DealState": "simcasino.reference.state",
    "GameState": "simcasino.reference.game",
    "Move": "simcasino.core.protocol",
    "MoveKind": "simcasino.core.protocol",
    "Stream": "simcasino.core.protocol",
    "View": "simcasino.core.protocol",
    "card_code": "simcasino.core.cards",
    "card_codes": "simcasino.core.cards",
    "move_name": "simcasino.core.notation",
    "play_deal": "simcasino.reference.referee",
    "read_move": "simcasino.reference.moves",
    "PRESETS": "simcasino.core.rules",
    "Rules": "simcasino.core.rules",
    "capture_options": "simcasino.analyze",
    "compare": "simcasino.experiment.compare",
    "evaluate": "simcasino.interop.evaluate",
    "Comparison": "simcasino.experiment.result",
    "play_games": "simcasino.simulation",
    "simulate": "simcasino.simulation",
}
__all__ = [*sorted(_API), "__version__"]


def __getattr__(name: str) -> object:
    if name not in _API:
        raise AttributeError(f"module 'simcasino' has no attribute {name!r}")
    value = getattr(_importlib.import_module(_API[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API only (what ``from simcasino import *`` gives), not the helpers of this
    file: a notebook's completion lists what one may use."""
    return list(__all__)
