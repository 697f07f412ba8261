"""A run's summary printed as sentences and tables: the SPRT's hypotheses in words when the
run has one, per comparison its verdict in words (`report.text.verdict`), then A − B per deal
with its simultaneous CI and its kind (fixed or anytime: the interval the verdict agrees
with), p, Bonferroni's p, the gain from pairing, whether the CI lies inside the equivalence
margin, the SPRT's decision and win rates; the anatomy by scoring component; self-play.
Imported by the run verbs once a run has finished (it needs polars and the summary)."""

from __future__ import annotations

from typing import Any

import click
import polars as pl

from simcasino.cli.common import echo_table
from simcasino.experiment.metrics import selfplay_table
from simcasino.experiment.runner import RunResult
from simcasino.experiment.summary import COMPONENT_LABELS as ANATOMY
from simcasino.experiment.summary import zero_components, zero_note
from simcasino.report.text import answer, run_size, sprt_decision, sprt_reading, sprt_sentence
from simcasino.sequential import ANYTIME_FROM


def _interval(low: str, high: str) -> pl.Expr:
    """``[6.779, 8.237]``, or that an anytime interval is not given yet (too few decks)."""
    given = pl.col(low).is_finite() & pl.col(high).is_finite()
    return (
        pl.when(given)
        .then(pl.format("[{}, {}]", pl.col(low).round(3), pl.col(high).round(3)))
        .otherwise(pl.lit(f"none before {ANYTIME_FROM:,} decks"))
    )


def main_table(table: pl.DataFrame, data: dict[str, Any]) -> pl.DataFrame:
    """One row per comparison: A − B in points per deal with the simultaneous CI (its kind in
    the header), p, Bonferroni's p, pairing's gain; with a margin, whether the CI lies inside it."""
    points = table.filter(pl.col("measure") == "points").select(
        "a",
        "b",
        pl.col("n").alias("decks"),
        pl.col("mean_diff").round(3).alias("diff/deal"),
        _interval("sim_low", "sim_high").alias(f"95% CI (simultaneous, {data['interval']})"),
        pl.col("p_value").map_elements(_p, return_dtype=pl.String).alias("p"),
        pl.col("p_adjusted").map_elements(_p, return_dtype=pl.String).alias("p (Bonferroni)"),
        pl.col("variance_reduction").round(2).alias("pairing ×"),
    )
    extra = {}
    margin = data["comparisons"][0].get("margin")  # the spec's, the same for every comparison
    if margin is not None:
        extra[f"inside ±{margin:g}"] = [
            "yes" if c["equivalent"] else "no" for c in data["comparisons"]
        ]
    if any("sprt" in c for c in data["comparisons"]):
        extra["SPRT"] = [sprt_decision(c["sprt"]) for c in data["comparisons"]]
    if any("games" in c for c in data["comparisons"]):
        extra["A wins (games)"] = [_wins(c["games"]) for c in data["comparisons"]]
    return points.with_columns(pl.Series(k, v) for k, v in extra.items())


def anatomy_table(table: pl.DataFrame) -> pl.DataFrame:
    """Where the difference comes from: A − B per deal by scoring component (those zero in
    every comparison left out: `summary.zero_components`)."""
    parts = table.filter(pl.col("measure").is_in(list(ANATOMY)))
    wide = parts.pivot("measure", index=["a", "b"], values="mean_diff", maintain_order=True)
    shown = [m for m in ANATOMY if m not in zero_components(table)]
    return wide.select("a", "b", *(pl.col(m).round(3).alias(ANATOMY[m]) for m in shown))


def _p(p: float) -> str:
    return "< 1e-9" if p < 1e-9 else f"{p:.2g}"


def _wins(games: dict[str, Any]) -> str:
    return (
        f"{games['win_rate']:.1%} [{games['win_ci_low']:.1%}, {games['win_ci_high']:.1%}] of "
        f"{games['games']:,}"
    )


def echo_result(result: RunResult) -> None:
    data = result.data
    click.echo(
        f"{data['name']}: {data['rules']} rules, {data['players']} players, seed {data['seed']}: "
        + run_size(data)
    )
    if "sprt" in data:
        click.echo(sprt_sentence(data["sprt"]))
    for comparison in data["comparisons"]:
        click.echo(answer(comparison))
        reading = sprt_reading(comparison)
        if reading:
            click.echo(f"  {reading}")
    anytime = (
        f"; anytime intervals, as {data['interval_why']}" if data["interval"] == "anytime" else ""
    )
    click.echo(
        "difference A − B in points per deal (positive: A scores more; the intervals cover "
        f"together{anytime}):"
    )
    echo_table(main_table(result.table, data))
    decided = any(c.get("sprt", {}).get("decision") for c in data["comparisons"])
    click.echo(
        "anatomy: A − B per deal by scoring component"
        + (" (every deck played, also past the SPRT's decisions):" if decided else ":")
    )
    echo_table(anatomy_table(result.table))
    zero = zero_components(result.table)
    if zero:
        click.echo(zero_note(zero))
    if "selfplay" in data:
        click.echo(
            "self-play, the strategy in every seat (mean [95% CI], fixed: the SPRT never stops it):"
        )
        echo_table(selfplay_table(data["selfplay"]))
