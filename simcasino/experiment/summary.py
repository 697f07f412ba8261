"""From chunk sums to answers: per comparison the mean points-per-deal difference with its
95% CI and p-value, the same per scoring component, the variance reduction pairing bought,
win rates with Wilson intervals when games were played, the SPRT decision, and Bonferroni's
correction across the comparisons of one experiment, with the simultaneous 95% interval of
the points difference that agrees with it (``sim_low``, ``sim_high``: all the experiment's
intervals cover together; `stats` says why not Holm); with a margin, whether that interval
lies inside it (equivalence); and, when the spec asks for self-play, what the seats and the
rules do (`selfplay_dict`).

Which interval (`interval_kind`): a run whose size was set before it started gets Student-t
intervals and p-values ("fixed", `stats`); a run whose data decided its size — it has a
stopping rule, or its results were shown at fewer decks than it now has (resumed or grown
after a look) — gets the confidence sequence and the always-valid p ("anytime",
`sequential`). A comparison the SPRT decided keeps the points figures of the decks it decided
on (`stopping`); its components, pairing and win rates cover every deck the run used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from simcasino.experiment.chunk import DEAL_MEASURES, SUM_COLUMNS, Plan
from simcasino.experiment.spec import Spec
from simcasino.experiment.stopping import Chunks, SprtState, SprtWalk
from simcasino.sequential import anytime_ci_from_sums
from simcasino.stats import (
    Estimate,
    bonferroni,
    mean_ci_from_sums,
    sd_ci,
    simultaneous_level,
    variance_reduction,
    wilson_ci,
)

COMPARISON_KINDS = ("decks", "games")
SELF_KINDS = ("self_decks", "self_games")
COMPONENTS = tuple(m for m in DEAL_MEASURES if m != "points")
# how a component is named in tables and figures
COMPONENT_LABELS = {
    "cards": "cards",
    "spades": "spades",
    "aces": "aces",
    "big_kasino": "10♦",
    "small_kasino": "2♠",
    "sistan": "sistan",
    "tabbes": "tabbes",
    "mulles": "mulles",
    "tabbe_penalty": "tabbe penalty",
    "build_penalty": "build penalty",
}
LEVEL = 0.95  # every interval's level; the verdicts' alpha is 1 - LEVEL
ESTIMATORS = {
    "fixed": mean_ci_from_sums,
    "anytime": anytime_ci_from_sums,
}  # interval kind -> estimate from sums


def contiguous(chunks: Chunks, kind: str) -> list[pl.DataFrame]:
    """The chunks 0, 1, 2, ... that are all there (a run in progress has gaps further on)."""
    out = []
    while (kind, len(out)) in chunks:
        out.append(chunks[kind, len(out)])
    return out


def used_chunks(
    spec: Spec, plan: Plan, chunks: Chunks
) -> tuple[list[pl.DataFrame], SprtWalk | None]:
    """The chunks the tables are made of: the deal chunks up to the SPRT stop (all without
    one) and every game chunk; with the SPRT's walk over them (None without a stopping rule)."""
    walk = SprtWalk(plan, spec.sprt) if spec.sprt else None
    stop = walk.advance(chunks) if walk else None
    deals = contiguous(chunks, "decks")
    rest = [frame for kind in ("games", *SELF_KINDS) for frame in contiguous(chunks, kind)]
    return deals[: None if stop is None else stop + 1] + rest, walk


def interval_kind(spec: Spec, decks: int, looks: Sequence[int]) -> tuple[str, str]:
    """("anytime", why) when the data decided the run's size: it has a stopping rule, or its
    results were shown at fewer than its ``decks`` (``looks``: `store.RunStore.looks`), so
    going on was chosen after seeing them; else ("fixed", why)."""
    if spec.sprt:
        return "anytime", "the SPRT decides the run's size"
    seen = [look for look in looks if look < decks]
    if seen:
        return "anytime", f"the run went on after its results were seen at {max(seen):,} decks"
    return "fixed", "the run's size was set before it started"


def histograms(
    frames: list[pl.DataFrame], kind: str, measure: str, column: str = "hist"
) -> pl.DataFrame | None:
    """``comparison, value, count``: a histogram column of the ``kind``/``measure`` rows summed
    over the chunks, lazily; None when a chunk has none (written before chunks kept them)."""
    rows = (
        pl.concat(frames).lazy().filter((pl.col("kind") == kind) & (pl.col("measure") == measure))
    )
    if rows.select(pl.col(column).is_null().any()).collect().item():
        return None
    return (
        rows.select("comparison", column)
        .explode(column)
        .unnest(column)
        .drop_nulls("value")
        .group_by("comparison", "value")
        .agg(pl.col("count").sum())
        .sort("comparison", "value")
        .collect()
    )


def totals(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Sums per (kind, comparison, measure) over the chunks, with decks and deals played."""
    if not frames:
        return pl.DataFrame(
            schema={
                "kind": pl.String,
                "comparison": pl.Int64,
                "measure": pl.String,
                "decks": pl.Int64,
                "deals_played": pl.Int64,
                **{c: pl.Int64 for c in SUM_COLUMNS},
            }
        )
    return (
        pl.concat(frames)
        .group_by("kind", "comparison", "measure", maintain_order=True)
        .agg(pl.col("decks", "deals_played", *SUM_COLUMNS).sum())
    )


def _margin(row: dict[str, Any], plan: Plan, kind: str, level: float = LEVEL) -> Estimate:
    """A margin measure's estimate per deal (or game) at ``level``, of the ``kind`` of interval."""
    return ESTIMATORS[kind](
        row["decks"],
        row["sum"],
        row["sum_sq"],
        scale=plan.rotations * (plan.rules.players - 1),
        level=level,
    )


def _pairing(row: dict[str, Any], plan: Plan) -> float:
    """Pairing's variance reduction: the variance of single plays against that of decks."""
    seats_b, rotations = plan.rules.players - 1, plan.rotations
    n = row["decks"]
    est = mean_ci_from_sums(n, row["sum"], row["sum_sq"], scale=rotations * seats_b)
    plays = n * rotations
    play = mean_ci_from_sums(plays, row["play_sum"], row["play_sum_sq"], scale=seats_b)
    return variance_reduction(play.se**2 * plays, rotations, est.se**2 * n)


def _decided(row: dict[str, Any], decision: SprtState) -> dict[str, Any]:
    """The points row as of the decks its SPRT decided on."""
    return row | {"decks": decision.decks, "sum": decision.total, "sum_sq": decision.total_sq}


def _row(
    spec: Spec, c: int, measure: str, est: Estimate, kind: str, reduction: float | None
) -> dict[str, Any]:
    a, b = spec.comparisons[c]
    unit = "games" if measure in ("score", "win_rate") else "decks"
    return {
        "a": a,
        "b": b,
        "measure": measure,
        "unit": unit,
        "n": est.n,
        "mean_diff": est.mean,
        "ci_low": est.ci_low,
        "ci_high": est.ci_high,
        "interval": kind,
        "p_value": est.p_value,
        "p_adjusted": None,
        "sim_low": None,
        "sim_high": None,
        "variance_reduction": reduction,
    }


def _win_row(spec: Spec, plan: Plan, c: int, row: dict[str, Any]) -> dict[str, Any]:
    plays = row["decks"] * plan.rotations
    low, high = wilson_ci(row["sum"], plays)
    rate = row["sum"] / plays
    return _row(
        spec, c, "win_rate", Estimate(rate, 0.0, low, high, row["decks"], None), "fixed", None
    )


def summary_frame(
    spec: Spec,
    plan: Plan,
    sums: pl.DataFrame,
    kind: str = "fixed",
    decisions: Sequence[SprtState] = (),
) -> pl.DataFrame:
    """One row per (comparison, measure), a deal measure's interval of the ``kind`` given
    (the games' are fixed: the SPRT never stops them, and ``--decks`` never grows them); on
    the points rows ``p_adjusted`` (Bonferroni across the comparisons) and the simultaneous
    interval ``sim_low``, ``sim_high`` that agrees with it, as of the decks its SPRT decided
    on when it did."""
    rows, together = [], simultaneous_level(LEVEL, len(spec.comparisons))
    for row in sums.sort("comparison", maintain_order=True).iter_rows(named=True):
        c, measure = row["comparison"], row["measure"]
        if measure == "wins":
            rows.append(_win_row(spec, plan, c, row))
            continue
        reduction = _pairing(row, plan)
        if measure == "points" and decisions and decisions[c].decision:
            row = _decided(row, decisions[c])
        own = kind if measure in DEAL_MEASURES else "fixed"
        rows.append(_row(spec, c, measure, _margin(row, plan, own), own, reduction))
        if measure == "points":
            simultaneous = _margin(row, plan, kind, together)
            rows[-1] |= {"sim_low": simultaneous.ci_low, "sim_high": simultaneous.ci_high}
    points = [r for r in rows if r["measure"] == "points"]
    for r, adjusted in zip(points, bonferroni([r["p_value"] for r in points])):
        r["p_adjusted"] = adjusted
    return (
        pl.DataFrame(rows, schema=SUMMARY_SCHEMA, orient="row")
        if rows
        else pl.DataFrame(schema=SUMMARY_SCHEMA)
    )


SUMMARY_SCHEMA = {
    "a": pl.String,
    "b": pl.String,
    "measure": pl.String,
    "unit": pl.String,
    "n": pl.Int64,
    "mean_diff": pl.Float64,
    "ci_low": pl.Float64,
    "ci_high": pl.Float64,
    "interval": pl.String,
    "p_value": pl.Float64,
    "p_adjusted": pl.Float64,
    "sim_low": pl.Float64,
    "sim_high": pl.Float64,
    "variance_reduction": pl.Float64,
}


def zero_components(table: pl.DataFrame) -> list[str]:
    """The scoring components that are zero in every comparison of a summary table (a §6 mulle
    or penalty the rules do not score, sistan under Finnish rules): the tables leave them out
    and say so in a line."""
    rows = table.filter(pl.col("measure").is_in(list(COMPONENTS)))
    zero = rows.group_by("measure").agg(
        ((pl.col("mean_diff") == 0) & (pl.col("ci_low") == 0) & (pl.col("ci_high") == 0))
        .all()
        .alias("zero")
    )
    found = set(zero.filter(pl.col("zero"))["measure"])
    return [m for m in COMPONENTS if m in found]


def zero_note(zero: Sequence[str]) -> str:
    """The line that says which components were left out: "mulles, tabbe penalty and build
    penalty: zero in every comparison, left out"."""
    names = [COMPONENT_LABELS[m] for m in zero]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{listed}: zero in every comparison, left out"


def _estimate_dict(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row[k] for k in ("mean_diff", "ci_low", "ci_high", "p_value")}


def inside_margin(low: float, high: float, margin: float) -> bool:
    """Equivalence by two one-sided tests: the interval lies strictly inside ±``margin``, so
    both "A − B ≤ −margin" and "A − B ≥ margin" are rejected."""
    return -margin < low and high < margin


def comparison_dicts(
    spec: Spec, frame: pl.DataFrame, decisions: Sequence[SprtState] = ()
) -> list[dict[str, Any]]:
    """Per comparison: the points row's figures with the ``interval`` kind, ``margin`` and
    ``equivalent`` when the spec has a margin, ``components``, ``sprt`` (`SprtState.as_dict`)
    with a stopping rule and, when games were played, ``games`` (win rate of A with its
    Wilson CI, mean final-score difference)."""
    out = []
    for c, (a, b) in enumerate(spec.comparisons):
        rows = {
            r["measure"]: r
            for r in frame.filter((pl.col("a") == a) & (pl.col("b") == b)).iter_rows(named=True)
        }
        item: dict[str, Any] = {
            "a": a,
            "b": b,
            "strategy_a": spec.arms[a].label,
            "strategy_b": spec.arms[b].label,
        }
        points = rows["points"]
        item |= {
            **_estimate_dict(points),
            "decks": points["n"],
            "interval": points["interval"],
            "p_adjusted": points["p_adjusted"],
            "sim_low": points["sim_low"],
            "sim_high": points["sim_high"],
            "comparisons": len(spec.comparisons),
            "variance_reduction": points["variance_reduction"],
        }
        if spec.margin is not None:
            item |= {
                "margin": spec.margin,
                "equivalent": inside_margin(points["sim_low"], points["sim_high"], spec.margin),
            }
        item["components"] = {m: _estimate_dict(rows[m]) for m in COMPONENTS}
        if "win_rate" in rows:
            item["games"] = {
                "games": rows["win_rate"]["n"],
                "win_rate": rows["win_rate"]["mean_diff"],
                "win_ci_low": rows["win_rate"]["ci_low"],
                "win_ci_high": rows["win_rate"]["ci_high"],
                "score": _estimate_dict(rows["score"]),
            }
        if decisions:
            item["sprt"] = decisions[c].as_dict(spec.sprt)
        out.append(item)
    return out


def _interval(est: Estimate) -> dict[str, float]:
    return {"mean": est.mean, "ci_low": est.ci_low, "ci_high": est.ci_high}


def _rate(successes: int, n: int) -> dict[str, float]:
    low, high = wilson_ci(successes, n)
    return {"mean": successes / n, "ci_low": low, "ci_high": high}


def selfplay_dict(plan: Plan, frames: list[pl.DataFrame]) -> dict[str, Any]:
    """What the self-play chunks among ``frames`` say, each figure ``{mean, ci_low, ci_high}``
    (95%): per deal ``seat_points`` (the first player's points minus the mean of the others'),
    ``points_sd`` (a player's points per deal: standard deviation), ``tabbes`` (scored by all
    players together) and ``cards_tie`` (share of deals where the most cards were tied, so no
    one took the cards point); per game ``deals_per_game`` and ``seat_wins`` (the first
    player's win rate; an even game gives ``fair``). Figures need at least two deals (games)."""
    units = plan.rules.units
    out: dict[str, Any] = {
        "strategy": plan.selfplay.label,
        "fair": 1 / units,
        "decks": 0,
        "games": 0,
    }
    own = [f for f in frames if f["kind"][0] in SELF_KINDS]
    sums = {(r["kind"], r["measure"]): r for r in totals(own).iter_rows(named=True)}
    deals = sums.get(("self_decks", "seat_points"))
    if deals and deals["decks"] >= 2:
        n = deals["decks"]
        out["decks"] = n
        out["seat_points"] = _interval(
            mean_ci_from_sums(n, deals["sum"], deals["sum_sq"], scale=units - 1)
        )
        points = histograms(own, "self_decks", "points")
        out["points_sd"] = _interval(sd_ci(points["value"], points["count"], units=n))
        tabbes = sums["self_decks", "tabbes"]
        out["tabbes"] = _interval(mean_ci_from_sums(n, tabbes["sum"], tabbes["sum_sq"]))
        out["cards_tie"] = _rate(sums["self_decks", "cards_tie"]["sum"], n)
    games = sums.get(("self_games", "deals_per_game"))
    if games and games["decks"] >= 2:
        g = games["decks"]
        out["games"] = g
        out["deals_per_game"] = _interval(mean_ci_from_sums(g, games["sum"], games["sum_sq"]))
        out["seat_wins"] = _rate(sums["self_games", "seat_wins"]["sum"], g)
    return out
