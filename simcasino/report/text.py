"""The answer in words: one sentence per comparison that a person can read in ten seconds,
naming what was compared in words (not arm labels), and the number formats every page
shares (so a figure and the table say the same thing). A verdict is judged on the
Bonferroni-adjusted p and shown with the simultaneous interval that agrees with it
(`stats`), so an interval beside "no detectable difference" always holds 0."""

from __future__ import annotations

from typing import Any

from simcasino.strategies import StrategySpec, parse_strategy
from simcasino.strategies.heuristic import describe

LEVEL = 0.05  # a comparison is a finding when its Bonferroni-adjusted p-value is below this


def signed(x: float) -> str:
    return f"{x:+.3f}"


def interval(low: float, high: float) -> str:
    return f"[{low:+.3f}, {high:+.3f}]"


def p_text(p: float | None) -> str:
    if p is None:
        return "–"
    return "< 1e-9" if p < 1e-9 else f"{p:.2g}"


def p_phrase(name: str, p: float | None) -> str:
    """``p = 0.038`` or ``p < 1e-9``."""
    text = p_text(p)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


def significant(comparison: dict[str, Any]) -> bool:
    """Bonferroni-adjusted across the experiment's comparisons, so a finding is not luck of many tries."""
    return comparison["p_adjusted"] is not None and comparison["p_adjusted"] < LEVEL


def in_words(strategy: str) -> str:
    """A strategy label in words: "the heuristic without holding twos (S4)", "greedy" (a
    plain-Python strategy's label is its file's name, which stays as it is)."""
    try:
        spec = parse_strategy(strategy)
    except ValueError:
        return strategy
    if isinstance(spec, StrategySpec) and spec.name == "heuristic":
        return describe(spec.params)
    return spec.label


def together(comparison: dict[str, Any]) -> str:
    """How the interval is corrected: "simultaneous over 3 comparisons", or nothing for one."""
    m = comparison.get("comparisons", 1)
    return f", simultaneous over {m} comparisons" if m > 1 else ""


def verdict(comparison: dict[str, Any]) -> str:
    """``A beats B by 0.730 points per deal [0.690, 0.780]``, or ``no detectable difference``,
    with the simultaneous interval (the one the verdict agrees with); A and B in words."""
    a, b = in_words(comparison["strategy_a"]), in_words(comparison["strategy_b"])
    mean, low, high = comparison["mean_diff"], comparison["sim_low"], comparison["sim_high"]
    if not significant(comparison):
        return f"{a} against {b}: no detectable difference ({signed(mean)} points per deal {interval(low, high)})"
    if mean < 0:
        a, b, mean, low, high = b, a, -mean, -high, -low
    return f"{a} beats {b} by {mean:.3f} points per deal [{low:.3f}, {high:.3f}]"


def evidence(comparison: dict[str, Any]) -> str:
    """The numbers behind the verdict: arms, p-values, SPRT decision and win rate when there are any."""
    parts = [f"{comparison['a']} − {comparison['b']}: {p_phrase('p', comparison['p_value'])}, "
             f"{p_phrase('Bonferroni p', comparison['p_adjusted'])}",
             f"{comparison['deals']:,} decks"]
    sprt = comparison.get("sprt")
    if sprt:
        parts.append(f"SPRT {sprt['decision']} after {sprt['decks']:,} decks" if sprt["decision"] else "SPRT undecided")
    games = comparison.get("games")
    if games:
        parts.append(f"{comparison['a']} wins {games['win_rate']:.1%} of {games['games']:,} games "
                     f"[{games['win_ci_low']:.1%}, {games['win_ci_high']:.1%}]")
    return "; ".join(parts)
