"""Typed results of a comparison: what `simcasino.compare` returns and an experiment's
`RunResult.comparisons` holds.

Why objects and not dicts: in a notebook a result should print as a sentence and a table,
frame itself for polars, draw itself, and be typed for an editor; the old dict stays one call
away (`to_dict`, the JSON the command line prints) and, for one version, ``result["key"]``
still reads it with a DeprecationWarning.
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import polars as pl

from simcasino.experiment.summary import COMPONENT_LABELS, COMPONENTS

ESTIMATE_KEYS = ("mean_diff", "ci_low", "ci_high", "p_value")


class Tabular:
    """A typed result read as a table: `to_frame` (polars), and `to_pandas` for those who
    analyse in pandas, which says the extra to install when pandas or pyarrow is missing."""

    def to_frame(self) -> pl.DataFrame:
        raise NotImplementedError

    def to_pandas(self) -> Any:
        """`to_frame` as a pandas DataFrame (``pip install 'simcasino[pandas]'``)."""
        try:
            import pandas  # noqa: F401
            import pyarrow  # noqa: F401
        except ImportError:
            raise ImportError(
                "to_pandas needs the pandas extra: pip install 'simcasino[pandas]'"
            ) from None
        return self.to_frame().to_pandas()


class DictAccess(Tabular):
    """``result["key"]``, the dict of simcasino 0.3 read through `to_dict`, with a
    DeprecationWarning: it goes in the next version."""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        warnings.warn(
            f"{type(self).__name__}[{key!r}] reads the old dict, which goes in the next version: "
            f"read .{key} (or .to_dict()[{key!r}])",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.to_dict()[key]

    def keys(self) -> Any:
        """The old dict's keys (``set(result)`` and ``dict(result)`` as with 0.3's dict)."""
        return self.to_dict().keys()

    def __iter__(self) -> Any:
        return iter(self.to_dict())

    def __contains__(self, key: object) -> bool:
        return key in self.to_dict()


@dataclass(frozen=True)
class Estimate:
    """A difference A − B per deal (or per game) with its 95% interval and p-value."""

    mean_diff: float
    ci_low: float
    ci_high: float
    p_value: float

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Estimate:
        return cls(*(row[k] for k in ESTIMATE_KEYS))

    def to_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in ESTIMATE_KEYS}

    def __str__(self) -> str:
        return f"{self.mean_diff:+.3f} [{self.ci_low:+.3f}, {self.ci_high:+.3f}]"


@dataclass(frozen=True)
class Games:
    """Whole games played beside the deals: A's win rate (Wilson 95% CI) and the final-score
    difference."""

    games: int
    win_rate: float
    win_ci_low: float
    win_ci_high: float
    score: Estimate

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "win_rate": self.win_rate,
            "win_ci_low": self.win_ci_low,
            "win_ci_high": self.win_ci_high,
            "score": self.score.to_dict(),
        }


@dataclass(frozen=True, repr=False, eq=False)
class Comparison(DictAccess):
    """A against B on paired decks: the difference in points per deal, its anatomy by scoring
    component, and how it was measured. ``frame`` holds the summary rows it is read from (one
    per measure: `to_frame`)."""

    a: str
    b: str
    rules: str
    players: int
    seed: int
    points: Estimate
    decks: int
    interval: str
    p_adjusted: float
    sim_low: float
    sim_high: float
    comparisons: int
    variance_reduction: float
    components: Mapping[str, Estimate]
    deals_played: int
    frame: pl.DataFrame
    margin: float | None = None
    equivalent: bool | None = None
    games: Games | None = None
    sprt: Mapping[str, Any] | None = None
    interrupted: bool = False

    # the points' figures at the top, as 0.3's dict had them
    mean_diff = property(lambda self: self.points.mean_diff, doc="A − B in points a deal")
    ci_low = property(lambda self: self.points.ci_low, doc="its 95% interval's lower end")
    ci_high = property(lambda self: self.points.ci_high, doc="its 95% interval's upper end")
    p_value = property(lambda self: self.points.p_value, doc="the p-value of no difference")

    def to_frame(self) -> pl.DataFrame:
        """The summary rows: one per measure (points, then each component; win rate and score
        with games), ``mean_diff`` and its interval, as in the run's summary.parquet."""
        return self.frame

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``simcasino compare --json`` prints, key for key."""
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            **self.points.to_dict(),
            "decks": self.decks,
            "interval": self.interval,
            "p_adjusted": self.p_adjusted,
            "sim_low": self.sim_low,
            "sim_high": self.sim_high,
            "comparisons": self.comparisons,
            "variance_reduction": self.variance_reduction,
        }
        if self.margin is not None:
            out |= {"margin": self.margin, "equivalent": self.equivalent}
        out["components"] = {m: e.to_dict() for m, e in self.components.items()}
        if self.games is not None:
            out["games"] = self.games.to_dict()
        if self.sprt is not None:
            out["sprt"] = dict(self.sprt)
        out["deals_played"] = self.deals_played
        return out | ({"interrupted": True} if self.interrupted else {})

    def headline(self) -> str:
        """ "greedy − random: +7.539 points a deal [+7.510, +7.567], p = 0 (20,000 decks)"."""
        partial = ", interrupted: partial" if self.interrupted else ""
        return (
            f"{self.a} − {self.b}: {self.mean_diff:+.3f} points a deal [{self.sim_low:+.3f}, "
            f"{self.sim_high:+.3f}], p = {self.p_adjusted:.3g} ({self.decks:,} decks{partial})"
        )

    def lines(self) -> list[str]:
        """The headline, how it was measured, and the components that are not zero."""
        out = [
            self.headline(),
            f"  {self.rules} rules, {self.players} players, seed {self.seed}, "
            f"{self.deals_played:,} deals, {self.interval} interval, pairing cut the variance "
            f"{self.variance_reduction:.3g}×",
        ]
        if self.equivalent is not None:
            out.append(
                f"  equivalent within ±{self.margin:g}: {'yes' if self.equivalent else 'no'}"
            )
        if self.games is not None:
            g = self.games
            out.append(
                f"  {g.games:,} games: A wins {g.win_rate:.1%} [{g.win_ci_low:.1%}, "
                f"{g.win_ci_high:.1%}]"
            )
        width = max(len(COMPONENT_LABELS[m]) for m in self.components)
        out += [
            f"  {COMPONENT_LABELS[m]:<{width}}  {e}"
            for m, e in self.components.items()
            if not _zero(e)
        ]
        return out

    def __repr__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(COMPONENT_LABELS[m])}</td><td>{e.mean_diff:+.3f}</td>"
            f"<td>[{e.ci_low:+.3f}, {e.ci_high:+.3f}]</td></tr>"
            for m, e in self.components.items()
            if not _zero(e)
        )
        about = "<br>".join(html.escape(line.strip()) for line in self.lines()[1:2])
        return (
            f"<p><b>{html.escape(self.headline())}</b><br>{about}</p><table><tr><th>component</th>"
            f"<th>A − B a deal</th><th>95% CI</th></tr>{rows}</table>"
        )

    def plot(self) -> Any:
        """A matplotlib Figure: the difference and each non-zero component with its interval,
        the zero line drawn (the picture of `lines`)."""
        from matplotlib.figure import Figure

        shown = [("points", self.points)] + [
            (COMPONENT_LABELS[m], e) for m, e in self.components.items() if not _zero(e)
        ]
        fig = Figure(figsize=(6, 0.4 * len(shown) + 1.2))
        ax = fig.subplots()
        ys = range(len(shown))[::-1]
        means = [e.mean_diff for _, e in shown]
        errors = [
            [e.mean_diff - e.ci_low for _, e in shown],
            [e.ci_high - e.mean_diff for _, e in shown],
        ]
        ax.errorbar(means, ys, xerr=errors, fmt="o", capsize=3)
        ax.axvline(0, color="0.5", linewidth=0.8)
        ax.set_yticks(list(ys), [name for name, _ in shown])
        ax.set_xlabel(f"{self.a} − {self.b}, points a deal (95% CI)")
        fig.tight_layout()
        return fig


def _zero(e: Estimate) -> bool:
    return e.mean_diff == 0 and e.ci_low == 0 and e.ci_high == 0


def comparison_of(
    item: Mapping[str, Any],
    frame: pl.DataFrame,
    rules: str,
    players: int,
    seed: int,
    deals_played: int,
    interrupted: bool = False,
) -> Comparison:
    """A `Comparison` from one of `summary.comparison_dicts` and the summary table."""
    rows = frame.filter((pl.col("a") == item["a"]) & (pl.col("b") == item["b"]))
    games = item.get("games")
    return Comparison(
        a=item["strategy_a"],
        b=item["strategy_b"],
        rules=rules,
        players=players,
        seed=seed,
        points=Estimate.of(item),
        decks=item["decks"],
        interval=item["interval"],
        p_adjusted=item["p_adjusted"],
        sim_low=item["sim_low"],
        sim_high=item["sim_high"],
        comparisons=item["comparisons"],
        variance_reduction=item["variance_reduction"],
        components={m: Estimate.of(item["components"][m]) for m in COMPONENTS},
        deals_played=deals_played,
        frame=rows,
        margin=item.get("margin"),
        equivalent=item.get("equivalent"),
        games=None
        if games is None
        else Games(
            games["games"],
            games["win_rate"],
            games["win_ci_low"],
            games["win_ci_high"],
            Estimate.of(games["score"]),
        ),
        sprt=item.get("sprt"),
        interrupted=interrupted,
    )
