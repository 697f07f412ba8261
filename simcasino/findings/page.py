"""The findings page: findings.md with one verdict per claim and level of player at the top
(the worth a deal of adopting it), how it was measured, then per rule set the tables
(`findings.tables`) and a figure (`findings.figures`) of the measures (`findings.measures`),
and findings.json with every figure for machines. The card a player takes to the table is
`findings.card`'s: rules measured as the decision to adopt them.

Every sentence that describes the method is written from the budget the run used, and every
interval shown is one of one family (`verdict.Family`), whose size the page states.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from simcasino.advice.claims import CLAIMS
from simcasino.findings.figures import figure
from simcasino.findings.measures import LEVELS, Page, judgeable
from simcasino.findings.run import BASES, PLAYERS, RULE_SETS, Budget, Findings, estimate_full
from simcasino.findings.tables import dose_table, measures_table, stages_table
from simcasino.findings.verdict import DEAL_MARGIN, POSITION_MARGIN, RARE, Measured, adoption
from simcasino.report.style import DPI, report_style


def write_page(findings: Findings, folder: Path, commit: str, command: str) -> Path:
    """Write ``folder``/findings.md and a figure per rule set; the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    page = Page(findings)
    with report_style():
        for rule_set in RULE_SETS:
            figure(page, rule_set).savefig(folder / f"findings-{rule_set}.png", dpi=DPI)
    path = folder / "findings.md"
    path.write_text(markdown(page, commit, command))
    (folder / "findings.json").write_text(json.dumps(answers(page, commit), indent=1))
    return path


def answers(page: Page, commit: str) -> dict:
    """Every figure of the page for machines: per claim, rule set, players and level the worth
    a deal of adopting it with its family interval and verdict word, and per claim, rule set
    and players (or stage) the gain a contested position; the family's size, seed and commit, and
    per part of the run the commit and library versions it was made with."""
    b, family = page.findings.budget, page.family

    def row(m: Measured) -> dict:
        low, high = family.interval(m) if np.isfinite(m.se) else (None, None)
        return {
            "mean": m.mean,
            "se": m.se if np.isfinite(m.se) else None,
            "low": low,
            "high": high,
            "n": m.n,
        }

    adopting = [
        {
            "claim": w.arm,
            "rules": w.rule_set,
            "players": w.players,
            "level": w.base,
            "measure": "per deal",
            **row(page.deal_measure(w)),
            "verdict": adoption(page.deal_measure(w), family, DEAL_MARGIN),
        }
        for w in page.findings.worths
        if "@" not in w.arm
    ]
    doses = [
        {
            "claim": w.arm.split("@")[0],
            "dose": float(w.arm.split("@")[1]),
            "rules": w.rule_set,
            "players": w.players,
            "level": w.base,
            "measure": "weights per deal",
            **row(page.deal_measure(w)),
        }
        for w in page.findings.worths
        if "@" in w.arm
    ]
    contested = [
        {
            "claim": claim,
            "rules": rules,
            ("players" if isinstance(key, int) else "stage"): key,
            "level": "search",
            "measure": measure,
            **row(m),
        }
        for (rules, key, claim), c in page.contests.items()
        for measure, m in (
            ("per contested position", c.gain),
            ("labels shuffled", c.shuffled),
            ("a changed move", c.changed),
        )
    ]
    return {
        "commit": commit,
        "seed": b.seed,
        "budget": b.name,
        "family": family.size,
        "margin_deal": DEAL_MARGIN,
        "made": page.findings.made,
        "adopting": adopting,
        "doses": doses,
        "contested": contested,
    }


def verdict_lines(page: Page) -> list[str]:
    """One line per claim and rule set: for each level of player, the word on *adopting* it
    (made to follow it wherever it can, against the same free players, per deal) at each
    player count measured, and how many of its moves a deal adopting it changes (2 players)."""
    lines = []
    for claim in CLAIMS:
        for rule_set in claim.rule_sets:
            levels = [level_verdict(page, claim.id, rule_set, base) for base in BASES]
            lines.append(
                f"- **{claim.id}, {claim.tactic}** ({rule_set.capitalize()}): "
                + "; ".join(v for v in levels if v)
                + "."
            )
    return lines


def level_verdict(page: Page, claim: str, rule_set: str, base: str) -> str:
    """``base``'s words on adopting ``claim``: per player count the verdict and worth a deal."""
    parts = []
    for players in PLAYERS:
        worth = page.worths.get((base, rule_set, players, claim))
        if worth is not None:
            m = page.deal_measure(worth)
            parts.append(f"{players}p {adoption(m, page.family, DEAL_MARGIN)} ({m.mean:+.2f})")
    changed = page.findings.changes.get((base, rule_set, 2), {}).get(claim)
    if changed:
        why = (
            f" (it changes {f'{changed:.2f}' if changed >= 0.005 else 'fewer than 0.01'} moves "
            "a deal"
        )
    elif (
        changed == 0
    ):  # counted on the audit's deals for the search, on deals of its own for the others
        b = page.findings.budget
        counted = b.audit_deals[2] if base == "search" else b.change_deals
        why = f" (no move changed in {counted:,} deal{'s' * (counted != 1)}"
    else:
        why = ""
    if why and base == "search" and judgeable(m := page.contests[(rule_set, 2, claim)].changed):
        low, high = page.family.interval(m)
        why += f"; each is worth {m.mean:+.2f} [{low:+.2f}, {high:+.2f}] to follow instead"
    return f"{LEVELS[base]}: {', '.join(parts)}" + (why + ")" if why else "") if parts else ""


def _decks_by_count(b: Budget, base: str) -> list[tuple[int, list[int]]]:
    """``base``'s decks per arm with the player counts played at that many, in order."""
    out: dict[int, list[int]] = {}
    for players in b.players[base]:
        out.setdefault(b.arm_decks(base, players), []).append(players)
    return list(out.items())


def markdown(page: Page, commit: str, command: str) -> str:
    f, b = page.findings, page.findings.budget
    audited = sum(f.positions.values())
    contested = sum(len(j) for j in f.judged.values())
    exact = sum(j.exact for judged in f.judged.values() for j in judged)
    minutes = sum(f.seconds.values()) / 60
    quick = b.name != "full"
    deals = ", ".join(f"{n} deals with {p} players" for p, n in b.audit_deals.items())
    bases = "; ".join(
        f"{base} "
        + ", ".join(
            f"{decks:,} decks per arm ({', '.join(map(str, counts))} players)"
            for decks, counts in _decks_by_count(b, base)
        )
        for base in BASES
    )
    lines = [
        "# Findings: the rule books' advice, measured",
        "",
        "Every claim of docs/rules.md §7 (S1–S8 in Swedish rules, F1–F5 in Finnish) is a move "
        "test: a move follows the advice, breaks it, or the advice is silent "
        "(`simcasino.advice.claims`). Where a player has both a following and a breaking move the "
        "position is *contested*; only there can the advice matter.",
        "",
        "## Verdicts: should a player adopt it?",
        "",
        "For each level of player, the worth a deal of adopting the advice: the player made to "
        'follow it wherever it can, against the same players free, on paired decks. "Either way" '
        f"when the interval lies inside ±{DEAL_MARGIN:g} points a deal (checked first), then "
        '"adopt it" or "don\'t" by its sign, else "unproven"; the figure is the worth a deal. '
        "Rules with conditions, found and validated beyond the books, and the card they make: "
        "[strategy-card.md](strategy-card.md).",
        "",
        *verdict_lines(page),
        "",
        "## How it was measured",
        "",
        f"- **Per contested position, a strong player.** The search played {deals} against itself, "
        f"per rule set ({audited:,} positions, every seat). In each of the {contested:,} "
        f"(position, claim) pairs where the claim is contested, every legal move was played out by "
        f"the search's playouts in the same uniform worlds of the cards the player cannot see: the "
        f"best following and the best breaking move chosen on {b.worlds} worlds and valued on "
        f"{b.worlds} others (paired; the choice does not inflate the gain). The gain is the points "
        "of the deal (the deciding side's margin) the following move is worth over the breaking "
        "one; its interval is clustered by deal. Best against best rewards the side with more "
        "moves, so beside it stands the same estimator with the follow/break labels shuffled "
        "within each position (their counts kept): a claim is worth something there only by as "
        "much as it beats that level. *Its own move changed*: where the search's own move breaks "
        "the claim, the best following move (chosen on one set of worlds) against the move it "
        "played (both valued on the other): what following the advice instead is worth a changed "
        "move, with how many such positions. The *spread of true gains*: the standard deviation of "
        f"the gains across positions with the judge's noise taken out (their variance less their "
        f"mean squared error); the judge's noise: the same positions judged again with the two "
        f"world streams swapped. Where nothing is hidden (two players, the stock empty) the "
        f"search's exact solver valued "
        f'every move instead: {exact:,} pairs, reported apart ("exact").',
        f"- **Per deal.** Each base made to follow one claim wherever it can (`greedy:follow=S1`: "
        f"it chooses as it would among the moves not breaking the claim, wherever the claim is "
        "contested) in one seat, against the free base in the others, on paired decks (each deck "
        f'once per seat rotation): {bases}. "Changed" '
        f"is how many moves a deal the filter changes for one seat (counted on {b.change_deals} "
        "deals of the free base for greedy and the heuristic, on the audited positions for the "
        "search), and the worth per changed move is the worth divided by it. For the heuristic "
        "also the weights carrying the claim at 0, ½× and 2× against 1× (dose–response).",
        "- **Why the two can disagree.** The gain a contested position averages over every "
        "position where a following and a breaking move exist, most of which a good player follows "
        "anyway; the worth a deal comes only from the moves the filter changes, the positions "
        "where the player's own judgment broke the claim. A claim can gain where it applies and "
        "still cost a player who is made to follow it always.",
        f"- **One family.** The page shows {page.family.size} intervals; each is a Bonferroni "
        f"interval at {1 - 0.05 / page.family.size:.5f} (z = {page.family.z:.2f}), so all of them "
        'cover their true values together 95% of the time. "No effect larger than ±δ" means the '
        f"interval lies inside ±{POSITION_MARGIN:g} points a contested position or "
        f'±{DEAL_MARGIN:g} points a deal; below {RARE} contested positions a claim is "too rare to '
        'judge" and no interval is shown.',
        "",
        f"Generated by `{command}` (the run started at commit {commit}; each part's commit and "
        f'library versions are in findings.json, "made"), seed {b.seed}; the parts took '
        f"{minutes:.1f} minutes on this machine (2 cores shared with other work)."
        + (
            f" **These are the figures of the quick run** (budget `{b.name}`): too few positions "
            f"and decks for most verdicts. The full run (`simcasino findings run`) would take "
            f"about {estimate_full(f) / 3600:.1f} hours at the rates measured here."
            if quick
            else ""
        ),
        "",
        *(f"![{r}](findings-{r}.png)" for r in RULE_SETS),
        "",
        "The advice a player can act on, each rule measured as the decision to adopt it: "
        "[the strategy card](strategy-card.md) (`simcasino findings card`).",
        "",
    ]
    for rule_set in RULE_SETS:
        lines += (
            measures_table(page, rule_set)
            + stages_table(page, rule_set)
            + dose_table(page, rule_set)
        )
    return "\n".join(lines) + "\n"
