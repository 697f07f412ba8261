"""House-rule tuning: sweep rule settings and measure what each does to a game.

Modules: `sweep` (what is varied: knobs, preset-like switches, the TOML spec, the settings
and the experiment of each), `run` (playing the settings through the experiment runner, and
the table of metrics per setting). The figures are drawn by `simcasino.report.tune`.
"""

from simcasino.tune.run import TuneResult, display_table, load_result, metrics, run_tune
from simcasino.tune.sweep import TuneSpec, load_tune, parse_vary, spec_from_table

__all__ = [
    "TuneResult",
    "TuneSpec",
    "display_table",
    "load_result",
    "load_tune",
    "metrics",
    "parse_vary",
    "run_tune",
    "spec_from_table",
]
