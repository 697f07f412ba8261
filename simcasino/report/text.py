"""The answer in words: one sentence per comparison that a person can read in ten seconds,
naming what was compared in words (not arm labels), and the number formats every page
shares (so a figure and the table say the same thing). A verdict is judged on the
Bonferroni-adjusted p and shown with the simultaneous interval that agrees with it
(`stats`), so an interval beside "no detectable difference" always holds 0; with a margin,
"no difference larger than D" is said exactly when that interval lies inside ±D. The SPRT's
hypotheses and decisions are said in words too (`sprt_decision`, `sprt_sentence`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simcasino.sequential import ANYTIME_FROM
from simcasino.strategies import StrategySpec, parse_strategy
from simcasino.strategies.words import Vocabulary, vocabulary

LEVEL = 0.05  # a comparison is a finding when its Bonferroni-adjusted p-value is below this
WEIGHED = "heuristic"  # the strategy whose arms are told apart by what their weights stand for


def signed(x: float) -> str:
    return f"{x:+.3f}"


def interval(low: float, high: float) -> str:
    """``[-0.010, +0.031]``; an anytime interval not given yet (too few decks) says so."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"[no anytime interval before {ANYTIME_FROM:,} decks]"
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
    """Bonferroni-adjusted across the experiment's comparisons, so a finding is not luck of many
    tries."""
    return comparison["p_adjusted"] is not None and comparison["p_adjusted"] < LEVEL


def in_words(strategy: str) -> str:
    """A strategy label in words: "the heuristic without holding twos (S4)", "greedy" (a
    plain-Python strategy's label is its file's name, which stays as it is)."""
    try:
        spec = parse_strategy(strategy)
    except ValueError:
        return strategy
    if isinstance(spec, StrategySpec) and spec.follow:
        free = in_words(dataclasses.replace(spec, follow=None).label)
        return f"{free} following {follow_words(spec.follow)}"
    vocab = vocabulary(spec.name) if isinstance(spec, StrategySpec) else None
    return spec.label if vocab is None else vocab.describe(spec.params)


def follow_words(follow: str) -> str:
    """What a ``follow=`` names, as a player says it: "the strategy card", "the strategy card's
    Finnish rules", "S4 (holding twos)", "the card my-card.toml", or the rule as written."""
    from simcasino.advice.claims import CLAIMS

    tactics = {claim.id: claim.tactic for claim in CLAIMS}
    if follow == "card":
        return "the strategy card"
    if follow.startswith("card-"):
        return f"the strategy card's {follow.partition('-')[2].capitalize()} rules"
    if follow.endswith(".toml"):
        return f"the card {Path(follow).name}"
    return f"{follow} ({tactics[follow]})" if follow in tactics else follow


def _follower(comparison: dict[str, Any]) -> tuple[str, str, float] | None:
    """A player made to follow advice against the same player free: (the advice in words, the
    player in words, the sign that makes a positive mean the advice's gain); None otherwise."""
    try:
        a, b = parse_strategy(comparison["strategy_a"]), parse_strategy(comparison["strategy_b"])
    except ValueError:
        return None
    if not (isinstance(a, StrategySpec) and isinstance(b, StrategySpec)):
        return None
    if (a.name, a.params) != (b.name, b.params) or bool(a.follow) == bool(b.follow):
        return None
    follower, sign = (a, 1.0) if a.follow else (b, -1.0)
    return follow_words(follower.follow), in_words(b.label if a.follow else a.label), sign


def _weighed_vocabulary() -> Vocabulary:
    """What the weights of `WEIGHED` stand for, by their names (`strategies.words`)."""
    return vocabulary(WEIGHED)


def _weights(strategy: str) -> dict[str, float] | None:
    """Every weight of a heuristic arm (defaults filled in); None for another strategy."""
    try:
        spec = parse_strategy(strategy)
    except ValueError:
        return None
    if not isinstance(spec, StrategySpec) or spec.name != WEIGHED or spec.follow:
        return None
    return {
        name: spec.params.get(name, default)
        for name, default in _weighed_vocabulary().defaults.items()
    }


def _parts(names: list[str]) -> list[str]:
    """Weights by what they stand for, several that are one piece of advice by its name."""
    left, parts, vocab = list(names), [], _weighed_vocabulary()
    for words, group in vocab.groups.items():
        if len(group) > 1 and all(name in left for name in group):
            parts.append(words)
            left = [name for name in left if name not in group]
    return parts + [vocab.words[name] for name in left]


def _named(names: list[str], last: str = "and") -> str:
    """ "holding twos (S4) and holding tens (S5)", "careful trailing (S1-S3)"."""
    parts = _parts(names)
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {last} {parts[-1]}"


ARM_PARTS = (
    3  # at most this many tactics set an experiment's arms apart for each arm to say what it does
)


def arm_words(arms: Mapping[str, str]) -> dict[str, str]:
    """Each arm by what it does, over the tactics the experiment's heuristic arms set apart:
    "the heuristic with holding twos (S4) and holding tens (S5)", "the heuristic with holding
    twos (S4), without holding tens (S5)". Among more than `ARM_PARTS` tactics (a knock-out
    of each in turn) by what it leaves out ("the heuristic as shipped" for none), and any
    other strategy, as `in_words` says them."""
    weights = {name: w for name, text in arms.items() if (w := _weights(text)) is not None}
    defaults = _weighed_vocabulary().defaults
    varying = [name for name in defaults if len({w[name] for w in weights.values()}) > 1]
    out = {}
    for arm, text in arms.items():
        w = weights.get(arm)
        on = [n for n in varying if w and w[n] == defaults[n] != 0]
        off = [n for n in varying if w and w[n] == 0 != defaults[n]]
        if w is None or len(_parts(varying)) > ARM_PARTS or len(on) + len(off) < len(varying):
            out[arm] = (
                "the heuristic as shipped" if w and on == varying and varying else in_words(text)
            )
        else:
            parts = ([f"with {_named(on)}"] if on else []) + (
                [f"without {_named(off, 'or')}"] if off else []
            )
            out[arm] = "the heuristic " + ", ".join(parts)
    return out


def _contrast(comparison: dict[str, Any]) -> tuple[str, str, int] | None:
    """What A does that B does not, as (the tactics in words, the player both are, +1), or
    what B does that A does not (-1): when the two are the heuristic with some tactics on in
    one and off in the other, and nothing else apart. None otherwise."""
    a, b = _weights(comparison["strategy_a"]), _weights(comparison["strategy_b"])
    if a is None or b is None:
        return None
    vocab = _weighed_vocabulary()
    apart = [n for n in vocab.defaults if a[n] != b[n]]
    for side, (more, less) in ((1, (a, b)), (-1, (b, a))):
        if apart and all(less[n] == 0 and more[n] == vocab.defaults[n] for n in apart):
            common = {n: v for n, v in less.items() if n not in apart and v != vocab.defaults[n]}
            return _named(apart), vocab.describe(common), side
    return None


def _at_most(x: float) -> str:
    """``x`` rounded up to three decimals: a bound that stays a bound once printed."""
    return f"{math.ceil(x * 1000 - 1e-9) / 1000:.3f}"


def answer(comparison: dict[str, Any]) -> str:
    """The comparison in a player's words, with its size: "holding twos (S4) is worth 0.012
    points a deal to the heuristic without holding tens (S5) [0.001, 0.027]", "... is worth
    less than 0.034 points a deal to ..., either way (no detectable difference: ...)"; where
    the two arms are not one tactic apart, `verdict`. Judged as `verdict` judges."""
    found = _contrast(comparison)
    if found is None:
        return verdict(comparison)
    tactic, player, side = found
    several = " and " in tactic or ", " in tactic
    is_, together = ("are", " together") if several else ("is", "")
    mean, low, high = (
        side * comparison["mean_diff"],
        *sorted((side * comparison["sim_low"], side * comparison["sim_high"])),
    )
    size = f"({signed(mean)} {interval(low, high)})"
    if not significant(comparison):
        margin = comparison.get("margin")
        if not math.isfinite(high - low):
            return f"{tactic}{together}: no detectable difference to {player} yet {size}"
        if comparison.get("equivalent"):
            makes = "make" if several else "makes"
            return (
                f"{tactic}{together} {makes} no difference larger than {margin:g} points a "
                f"deal to {player} {size}"
            )
        return (
            f"{tactic}{together} {is_} worth less than {_at_most(max(high, -low))} points a deal "
            f"to {player}, either way (no detectable difference: {signed(mean)} "
            f"{interval(low, high)})"
        )
    if mean > 0:
        return (
            f"{tactic}{together} {is_} worth {mean:.3f} points a deal to {player} [{low:.3f}, "
            f"{high:.3f}]"
        )
    costs = "cost" if several else "costs"
    return (
        f"{tactic}{together} {costs} {player} {-mean:.3f} points a deal [{-high:.3f}, {-low:.3f}]"
    )


def sprt_reading(comparison: dict[str, Any]) -> str | None:
    """A sentence where the SPRT's decision and the interval seem to disagree: the SPRT says
    only which of its two gains the decks fit better, the interval how large the gain is."""
    sprt, low, high = comparison.get("sprt"), comparison["sim_low"], comparison["sim_high"]
    if not sprt or not sprt.get("decision"):
        return None
    at_most, at_least = f"{sprt['low']:g}", f"{sprt['high']:g}"
    test = (
        f"the SPRT weighs only which of its two gains, {at_most} or {at_least}, the decks fit "
        "better, and stops there; the interval says how large the gain is"
    )
    if sprt["decision"] == "H0" and low > sprt["low"]:
        return (
            f"The SPRT favours 'at most {at_most}', yet the interval lies above {at_most}: "
            f"{test}: small, but above."
        )
    if sprt["decision"] == "H1" and high < sprt["high"]:
        return (
            f"The SPRT favours 'at least {at_least}', yet the interval lies below {at_least}: "
            f"{test}: below it."
        )
    if sprt["decision"] == "H0" and high >= sprt["high"]:
        return (
            f"The SPRT favours 'at most {at_most}', yet the interval reaches {at_least}: {test}, "
            f"and it does not rule out {at_least}."
        )
    if sprt["decision"] == "H1" and low <= sprt["low"]:
        return (
            f"The SPRT favours 'at least {at_least}', yet the interval reaches {at_most}: {test}, "
            f"and it does not rule out {at_most}."
        )
    return None


def ci_name(comparison: dict[str, Any]) -> str:
    """Which interval: "95% CI (fixed)", "95% CI (anytime, simultaneous over 3 comparisons)"."""
    m = comparison.get("comparisons", 1)
    return f"95% CI ({comparison['interval']}" + (
        f", simultaneous over {m} comparisons)" if m > 1 else ")"
    )


def verdict(comparison: dict[str, Any]) -> str:
    """``A beats B by 0.730 points per deal [0.690, 0.780]``, ``no detectable difference``, or
    with a margin ``no difference larger than 0.05``, with the simultaneous interval (the one
    the verdict agrees with); A and B in words."""
    a, b = in_words(comparison["strategy_a"]), in_words(comparison["strategy_b"])
    mean, low, high = comparison["mean_diff"], comparison["sim_low"], comparison["sim_high"]
    margin, equivalent = comparison.get("margin"), comparison.get("equivalent", False)
    if not significant(comparison):
        if equivalent:
            return (
                f"{a} against {b}: no difference larger than {margin:g} points per deal "
                f"({signed(mean)} {interval(low, high)})"
            )
        unsettled = f"; one of {margin:g} is not ruled out" if margin is not None else ""
        return (
            f"{a} against {b}: no detectable difference ({signed(mean)} points per deal "
            f"{interval(low, high)}){unsettled}"
        )
    following = _follower(comparison)
    if following is not None and not equivalent:
        advice, player, sign = following
        gain, low, high = sign * mean, *sorted((sign * low, sign * high))
        word = "gains" if gain > 0 else "costs"
        if gain < 0:  # a cost, said as a positive amount
            gain, low, high = -gain, -high, -low
        return (
            f"following {advice} {word} {player} {gain:.3f} points per deal [{low:.3f}, {high:.3f}]"
        )
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
    rates = (
        f"α = β = {sprt['alpha']:g}"
        if sprt["alpha"] == sprt["beta"]
        else f"α = {sprt['alpha']:g}, β = {sprt['beta']:g}"
    )
    return (
        f"SPRT: 'A gains at most {sprt['low']:g} points per deal' (H0) against 'at least "
        f"{sprt['high']:g}' (H1), {rates} over {over}; a comparison's figures are frozen where it "
        "decided"
    )


def _of(done: int, asked: int) -> str:
    return f"{done:,}" if done == asked else f"{done:,} of {asked:,}"


def run_size(data: dict[str, Any]) -> str:
    """How much a run played, each in its own word: decks (a shuffle, dealt once per seat
    rotation of each comparison), games, and the deals (hands) the results are made of, the
    progress bar's count at the end of a run played in one go without an SPRT stop."""
    stopped = (
        " (the SPRT stopped the run)"
        if data["stopped_early"]
        else (" (interrupted: partial figures)" if data.get("interrupted") else "")
    )
    games = f", and {_of(data['games'], data['games_asked'])} games" if data["games_asked"] else ""
    past = " (any played past the stop are left out)" if data["stopped_early"] else ""
    return (
        f"{_of(data['decks'], data['decks_asked'])} decks{stopped}, each dealt once per seat "
        f"rotation{games}: {data['deals_played']:,} deals in these results{past}"
    )


def evidence(comparison: dict[str, Any]) -> str:
    """The numbers behind the verdict: arms, p-values, SPRT decision and win rate when there are
    any."""
    parts = [
        f"{comparison['a']} − {comparison['b']}: {p_phrase('p', comparison['p_value'])}, "
        f"{p_phrase('Bonferroni p', comparison['p_adjusted'])}",
        f"{comparison['decks']:,} decks",
    ]
    sprt = comparison.get("sprt")
    if sprt:
        parts.append(f"SPRT: {sprt_decision(sprt)}")
    games = comparison.get("games")
    if games:
        parts.append(
            f"{comparison['a']} wins {games['win_rate']:.1%} of {games['games']:,} games "
            f"[{games['win_ci_low']:.1%}, {games['win_ci_high']:.1%}]"
        )
    return "; ".join(parts)
