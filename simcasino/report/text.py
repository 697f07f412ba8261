"""The answer in words: one sentence per comparison that a person can read in ten seconds,
and the number formats every page shares (so a figure and the table say the same thing)."""

from __future__ import annotations

from typing import Any

LEVEL = 0.05  # a comparison is a finding when its Holm-adjusted p-value is below this


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
    """Holm-adjusted across the experiment's comparisons, so a finding is not luck of many tries."""
    return comparison["p_holm"] is not None and comparison["p_holm"] < LEVEL


def verdict(comparison: dict[str, Any]) -> str:
    """``on beats off by 0.730 points per deal [0.690, 0.780]``, or ``no detectable difference``."""
    a, b = comparison["a"], comparison["b"]
    mean, low, high = comparison["mean_diff"], comparison["ci_low"], comparison["ci_high"]
    if not significant(comparison):
        return f"{a} vs {b}: no detectable difference ({signed(mean)} points per deal {interval(low, high)})"
    if mean < 0:
        a, b, mean, low, high = b, a, -mean, -high, -low
    return f"{a} beats {b} by {mean:.3f} points per deal [{low:.3f}, {high:.3f}]"


def evidence(comparison: dict[str, Any]) -> str:
    """The numbers behind the verdict: p-values, SPRT decision and win rate when there are any."""
    parts = [f"{p_phrase('p', comparison['p_value'])}, {p_phrase('Holm p', comparison['p_holm'])}",
             f"{comparison['deals']:,} decks"]
    sprt = comparison.get("sprt")
    if sprt:
        parts.append(f"SPRT {sprt['decision']} after {sprt['decks']:,} decks" if sprt["decision"] else "SPRT undecided")
    games = comparison.get("games")
    if games:
        parts.append(f"{comparison['a']} wins {games['win_rate']:.1%} of {games['games']:,} games "
                     f"[{games['win_ci_low']:.1%}, {games['win_ci_high']:.1%}]")
    return "; ".join(parts)
