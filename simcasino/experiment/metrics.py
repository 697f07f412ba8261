"""A measure as a table and a chart show it (`Metric`), the measures of an experiment's
self-play (`SELF_METRICS`, figures of `experiment.summary.selfplay_dict`), a figure as text,
``mean [low, high]`` (`cell_text`), and an experiment's self-play as one row of such cells
(`selfplay_table`).

Here, below both, so that a run's summary (`cli.summary`) and a house-rule sweep's table
(`tune.run`, which adds the skill gaps of its ladder) print self-play alike and the summary
needs nothing from the sweeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl


@dataclass(frozen=True)
class Metric:
    """One column of a table (with ``_ci_low`` and ``_ci_high``) and one chart."""

    key: str
    header: str  # the table's column header, short
    title: str  # what it is, in a chart's title
    axis: str  # the chart's y label, with the unit
    digits: int = 3
    percent: bool = False
    reference: str | None = None  # a line on the chart: "zero" (no edge) or "fair" (an even share)
    paired: bool = False  # from the ladder's paired comparisons (else from self-play)


# what self-play measures (the strategy in every seat), in table order
SELF_METRICS = (
    Metric(
        "deals_per_game", "deals/game", "deals per game", "deals per game (to the target)", digits=2
    ),
    Metric(
        "first_player_points",
        "1st player pts/deal",
        "first player's edge",
        "points per deal (first player − mean of others)",
        reference="zero",
    ),
    Metric(
        "first_player_wins",
        "1st player wins %",
        "first player's game wins",
        "share of games the first player wins",
        percent=True,
        reference="fair",
    ),
    Metric(
        "points_sd",
        "points SD",
        "points volatility",
        "standard deviation of a player's points per deal",
        digits=2,
    ),
    Metric(
        "tabbes_per_deal", "tabbes/deal", "tabbe rate", "tabbes per deal (all players together)"
    ),
    Metric(
        "cards_tied",
        "cards tied %",
        "most cards tied",
        "share of deals where a tie leaves the most-cards point to no one",
        percent=True,
    ),
)
# each self-play metric's figure in `experiment.summary.selfplay_dict`
SELFPLAY_KEYS = {
    "deals_per_game": "deals_per_game",
    "first_player_points": "seat_points",
    "first_player_wins": "seat_wins",
    "points_sd": "points_sd",
    "tabbes_per_deal": "tabbes",
    "cards_tied": "cards_tie",
}


def selfplay_table(selfplay: dict[str, Any]) -> pl.DataFrame:
    """An experiment's self-play figures (`experiment.summary.selfplay_dict`) as one row of
    text cells, as the sweep's table shows them."""
    cells = {
        "strategy": [selfplay["strategy"]],
        "decks": [f"{selfplay['decks']:,}"],
        "games": [f"{selfplay['games']:,}"],
    }
    for m in SELF_METRICS:
        est = selfplay.get(SELFPLAY_KEYS[m.key])
        cells[m.header] = [
            "–" if est is None else cell_text(m, est["mean"], est["ci_low"], est["ci_high"])
        ]
    return pl.DataFrame(cells)


def cell_text(m: Metric, mean: float, low: float, high: float) -> str:
    """``mean [low, high]`` in the metric's digits, rates in percent."""
    if m.percent:
        return f"{100 * mean:.1f} [{100 * low:.1f}, {100 * high:.1f}]"
    return f"{mean:.{m.digits}f} [{low:.{m.digits}f}, {high:.{m.digits}f}]"
