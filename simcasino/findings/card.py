"""The strategy card in its forms: the rules file `follow=` reads (``strategy-card.toml``),
the card a person takes to the table (``strategy-card.pdf``, a page a level, and a PNG of each
page: each rule in words, its validated worth a deal, the card as a whole), the page that says how
it was found (``strategy-card.md``: with every validated rule's verdict), and the figures for
machines (``strategy-card.json``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from simcasino.advice.conditions import parse_rule
from simcasino.findings.discovery import RULE_SETS, Budget, Discovery, Measure
from simcasino.findings.verdict import DEAL_MARGIN, Family, Measured
from simcasino.report.layout import Column
from simcasino.report.style import DPI, PAGE, report_style

CHECK_LEVEL = 0.95  # the card's own interval: one pre-registered measurement a level and rule set


def in_words(text: str) -> str:
    """A rule's text in a player's words (`conditions.Rule.words`)."""
    return parse_rule(text).words


def interval(m: Measure, family: Family) -> str:
    """The worth and its interval; a rule that changed no move on any deck says so (an
    interval of [+0.000, +0.000] reads as a measurement of remarkable precision)."""
    if m.mean == 0 and m.se == 0:
        return "0 (it changed no move)"
    low, high = family.interval(Measured(m.mean, m.se, m.decks))
    return f"{m.mean:+.3f} [{low:+.3f}, {high:+.3f}]"


def card_toml(found: Sequence[Discovery], command: str, commit: str) -> str:
    lines = [
        "# The strategy card: rules a player follows in this order (an earlier rule wins where two",
        "# conflict), each for the level of player it was found and validated for, and for both "
        "games or",
        "# one (`game`). `greedy:follow=card` plays greedy's card for both games, "
        "`greedy:follow=card-finnish`",
        "# its Finnish card; docs/strategy-card.md says what each is worth.",
        f"# Written by `{command}` at commit {commit}.",
        "",
    ]
    for d in found:
        for game, card in d.cards.items():
            for text in card:
                worth = ", ".join(f"{r} {d.validated[text][r].mean:+.3f}" for r in RULE_SETS)
                tag = [f'game = "{game}"'] if game else []
                lines += [
                    "[[rule]]",
                    f'rule = "{text}"',
                    f'level = "{d.level}"',
                    *tag,
                    f"# {in_words(text)} (alone: {worth} a deal)",
                    "",
                ]
    return "\n".join(lines)


def card_page(found: Sequence[Discovery], budget: Budget, command: str, commit: str) -> str:
    check = Family(1, CHECK_LEVEL)
    out = [
        "# The strategy card",
        "",
        "[strategy-card.pdf](strategy-card.pdf) (a page a level), ![card](strategy-card.png)",
        "",
        "Rules a player can apply by looking at the table, found by a search over conditions and "
        'move tests (docs/rules.md, "Advice with conditions") and each measured as the decision a '
        "player faces: adopt the rule, or play as before, against the same players, on paired "
        "decks, 2 players. Points a deal are the follower's margin less the free player's; an "
        "earlier rule of the card wins where two conflict.",
        "",
    ]
    for d in found:
        out += [f"## For {_level_words(d.level)}", ""]
        for game, card in d.cards.items():
            out += _card_section(d, game, card, budget, check)
        out += [
            f"Screened {d.screened} rules ({budget.screen:,} decks each and rule set, seed "
            f"{budget.seed}); the best, with each claim's best refined form (its best rule with a "
            f"condition, in its own rule set), {len(d.validated)} in all, validated on "
            f"{budget.validate:,} fresh decks (seed {budget.seed + 1}); "
            f"their {d.family.size} intervals are one family (each at "
            f'{1 - 0.05 / d.family.size:.4%}, all together at 95%). Verdict words: "either way" '
            f'when the interval lies inside ±{DEAL_MARGIN} (checked first), then "adopt it" / '
            '"don\'t" by its sign, else "unproven".',
            "",
            "| rule | in words | "
            + " | ".join(f"{r}: verdict, worth [interval]" for r in RULE_SETS)
            + " |",
            "|---|---|" + "---|" * len(RULE_SETS),
        ]
        out += [
            f"| `{t}` | {in_words(t)} | "
            + " | ".join(
                f"{d.verdict(t, r)}, {interval(d.validated[t][r], d.family)}" for r in RULE_SETS
            )
            + " |"
            for t in d.validated
        ]
        out.append("")
    out += [f"Made by `{command}` at commit {commit}.", ""]
    return "\n".join(out)


def _card_section(
    d: Discovery, game: str, card: Sequence[str], budget: Budget, check: Family
) -> list[str]:
    """One card of a level on the page: its rules with their validated worth, the card whole."""
    name = f"card-{game}" if game else "card"
    out = [
        f"### {game.capitalize() + ' Kasino' if game else 'Both games'} "
        f"(`{d.level}:follow={name}`)",
        "",
    ]
    if not card:
        return out + ["No validated rule added 0.02 a deal to this card; it is empty.", ""]
    games = (game,) if game else RULE_SETS
    out += [
        "| # | rule | in words | " + " | ".join(f"{r}, alone, validated" for r in games) + " |",
        "|---|---|---|" + "---|" * len(games),
    ]
    out += [
        f"| {k} | `{t}` | {in_words(t)} | "
        + " | ".join(interval(d.validated[t][r], d.family) for r in games)
        + " |"
        for k, t in enumerate(card, 1)
    ]
    whole = "; ".join(f"{r} {interval(d.checks[game][r], check)}" for r in games)
    beside = "; ".join(
        f"{t} {interval(m, check)}" for t, m in d.checks[game].items() if t not in games
    )
    return out + [
        "",
        f"**The card as a whole**, {d.level} made to follow every rule against {d.level} free, "
        f"{budget.card_check:,} fresh decks (seed {budget.seed + 2}), points a deal with a 95% "
        f"interval: {whole}. With more players (the same seed, as many deals): {beside}.",
        "",
    ]


def card_json(found: Sequence[Discovery], budget: Budget, commit: str) -> str:
    return json.dumps(
        {
            "budget": asdict(budget),
            "commit": commit,
            "levels": [
                {
                    "level": d.level,
                    "screened": d.screened,
                    "family": d.family.size,
                    "cards": {
                        game or "both": {
                            "rules": list(card),
                            "check": {t: asdict(m) for t, m in d.checks[game].items()},
                        }
                        for game, card in d.cards.items()
                    },
                    "validated": [
                        {
                            "rule": t,
                            "words": in_words(t),
                            **{
                                r: {**asdict(d.validated[t][r]), "verdict": d.verdict(t, r)}
                                for r in RULE_SETS
                            },
                        }
                        for t in d.validated
                    ],
                }
                for d in found
            ],
        },
        indent=1,
    )


def card_figure(d: Discovery, budget: Budget) -> Figure:
    """One page to take to the table, for one level: each of its cards (both games, then each
    game), its rules in order and in words, what each was worth alone, and the card whole."""
    fig = Figure(figsize=PAGE)
    page = Column(fig, top=0.95)
    page.write(
        f"Nordic Kasino: a strategy card for {_level_words(d.level)}",
        fontsize=16,
        weight="bold",
        gap=0.02,
    )
    page.write(
        "Apply the rules in order; an earlier rule wins where two disagree. Points a deal gained "
        "by a player who adopts them, against the same players, 2 players, fresh decks.",
        fontsize=10,
        gap=0.03,
    )
    for game, rules in ((g, r) for g, r in d.cards.items() if r):
        games = (game,) if game else RULE_SETS
        whole = ", ".join(f"{r.capitalize()} {d.checks[game][r].mean:+.2f}" for r in games)
        where = f"{game.capitalize()} Kasino" if game else "Both games"
        page.write(
            f"{where} ({d.level}:follow=card{'-' + game if game else ''}): the whole card {whole} "
            "a deal",
            fontsize=12,
            weight="bold",
            gap=0.012,
        )
        for k, text in enumerate(rules, 1):
            worth = ", ".join(f"{r[:2].upper()} {d.validated[text][r].mean:+.2f}" for r in games)
            page.write(
                f"{k}. {in_words(text)} (alone: {worth})", fontsize=10, hanging="    ", gap=0.009
            )
        page.y -= 0.02
    page.write(
        f"simcasino findings card: {budget.name} budget, seeds {budget.seed}-{budget.seed + 2}; "
        "how each rule was found and checked: docs/strategy-card.md",
        fontsize=8,
        color="grey",
    )
    return fig


def write_card(
    found: Sequence[Discovery], budget: Budget, folder: Path, command: str, commit: str
) -> list[Path]:
    """The card's files into ``folder`` (the TOML through a link, if one is there)."""
    files = {
        "strategy-card.toml": card_toml(found, command, commit),
        "strategy-card.md": card_page(found, budget, command, commit),
        "strategy-card.json": card_json(found, budget, commit),
    }
    for name, text in files.items():
        (folder / name).write_text(text)
    pictures = [f"strategy-card{'' if k == 0 else '-' + d.level}.png" for k, d in enumerate(found)]
    with report_style(), PdfPages(folder / "strategy-card.pdf") as pdf:
        for d, name in zip(found, pictures):
            figure = card_figure(d, budget)
            figure.savefig(folder / name, dpi=DPI)
            pdf.savefig(figure)
    return [folder / name for name in (*files, *pictures, "strategy-card.pdf")]


def _level_words(level: str) -> str:
    return {
        "greedy": "a club player who takes what they can (greedy)",
        "heuristic": "a player who knows the books' tactics (the heuristic)",
    }.get(level, level)
