"""The answer in words: one sentence per comparison that a person can read in ten seconds,
naming what was compared in words (not arm labels), and the number formats every page
shares (so a figure and the table say the same thing). A verdict is judged on the
Bonferroni-adjusted p and shown with the simultaneous interval that agrees with it
(`stats`), so an interval beside "no detectable difference" always holds 0; with a margin,
"no difference larger than D" is said exactly when that interval lies inside ±D. The SPRT's
hypotheses and decisions are said in words too (`sprt_decision`, `sprt_sentence`)."""

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


def ci_name(comparison: dict[str, Any]) -> str:
    """Which interval: "95% CI (fixed)", "95% CI (anytime, simultaneous over 3 comparisons)"."""
    m = comparison.get("comparisons", 1)
    return f"95% CI ({comparison['interval']}" + (f", simultaneous over {m} comparisons)" if m > 1 else ")")


def verdict(comparison: dict[str, Any]) -> str:
    """``A beats B by 0.730 points per deal [0.690, 0.780]``, ``no detectable difference``, or
    with a margin ``no difference larger than 0.05``, with the simultaneous interval (the one
    the verdict agrees with); A and B in words."""
    a, b = in_words(comparison["strategy_a"]), in_words(comparison["strategy_b"])
    mean, low, high = comparison["mean_diff"], comparison["sim_low"], comparison["sim_high"]
    margin, equivalent = comparison.get("margin"), comparison.get("equivalent", False)
    if not significant(comparison):
        if equivalent:
            return f"{a} against {b}: no difference larger than {margin:g} points per deal " \
                   f"({signed(mean)} {interval(low, high)})"
        unsettled = f"; one of {margin:g} is not ruled out" if margin is not None else ""
        return f"{a} against {b}: no detectable difference ({signed(mean)} points per deal {interval(low, high)})" \
               f"{unsettled}"
    if mean < 0:
        a, b, mean, low, high = b, a, -mean, -high, -low
    smaller = f", and by less than the margin of {margin:g}" if equivalent else ""
    return f"{a} beats {b} by {mean:.3f} points per deal [{low:.3f}, {high:.3f}]{smaller}"


def sprt_decision(sprt: dict[str, Any]) -> str:
    """A comparison's SPRT in words first: ``favours 'at least 0.25' (H1) after 256 decks``,
    ``favours 'at most 0' (H0) after …``, or ``undecided``. "Favours": the likelihood ratio
    passed a bound; a gain between the two may get either answer (the interval says how much)."""
    if sprt["decision"] == "H1":
        return f"favours 'at least {sprt['high']:g}' (H1) after {sprt['decks']:,} decks"
    if sprt["decision"] == "H0":
        return f"favours 'at most {sprt['low']:g}' (H0) after {sprt['decks']:,} decks"
    return "undecided"


def sprt_sentence(sprt: dict[str, Any]) -> str:
    """The run's stopping rule: its two hypotheses in words, then the error rates of the family."""
    m = sprt["comparisons"]
    over = "the comparison" if m == 1 else f"all {m} comparisons together"
    rates = f"α = β = {sprt['alpha']:g}" if sprt["alpha"] == sprt["beta"] else \
        f"α = {sprt['alpha']:g}, β = {sprt['beta']:g}"
    return (f"SPRT: 'A gains at most {sprt['low']:g} points per deal' (H0) against 'at least {sprt['high']:g}' (H1), "
            f"{rates} over {over}; a comparison's figures are frozen where it decided")


def _of(done: int, asked: int) -> str:
    return f"{done:,}" if done == asked else f"{done:,} of {asked:,}"


def run_size(data: dict[str, Any]) -> str:
    """How much a run played, each in its own word: decks (a shuffle, dealt once per seat
    rotation of each comparison), games, and the deals (hands) the results are made of, the
    progress bar's count at the end of a run played in one go without an SPRT stop."""
    stopped = " (the SPRT stopped the run)" if data["stopped_early"] else (
        " (interrupted: partial figures)" if data.get("interrupted") else "")
    games = f", and {_of(data['games'], data['games_asked'])} games" if data["games_asked"] else ""
    past = " (any played past the stop are left out)" if data["stopped_early"] else ""
    return (f"{_of(data['decks'], data['decks_asked'])} decks{stopped}, each dealt once per seat rotation{games}: "
            f"{data['deals_played']:,} deals in these results{past}")


def evidence(comparison: dict[str, Any]) -> str:
    """The numbers behind the verdict: arms, p-values, SPRT decision and win rate when there are any."""
    parts = [f"{comparison['a']} − {comparison['b']}: {p_phrase('p', comparison['p_value'])}, "
             f"{p_phrase('Bonferroni p', comparison['p_adjusted'])}",
             f"{comparison['decks']:,} decks"]
    sprt = comparison.get("sprt")
    if sprt:
        parts.append(f"SPRT: {sprt_decision(sprt)}")
    games = comparison.get("games")
    if games:
        parts.append(f"{comparison['a']} wins {games['win_rate']:.1%} of {games['games']:,} games "
                     f"[{games['win_ci_low']:.1%}, {games['win_ci_high']:.1%}]")
    return "; ".join(parts)
