"""The findings page's tables, one set a rule set: the measures side by side (per contested
position for the search, beside its shuffled-label level and what a changed move is worth,
and per deal for each base made to follow the claim), the
stages of the deal, and the heuristic's dose–response."""

from __future__ import annotations

from simcasino.advice.claims import claims_of
from simcasino.findings.contest import STAGES
from simcasino.findings.measures import Page
from simcasino.findings.run import BASES, PLAYERS
from simcasino.findings.verdict import RARE
from simcasino.findings.worth import DOSES, dose_arm


def measures_table(page: Page, rule_set: str) -> list[str]:
    """Per claim and player count the three measures side by side."""
    rows = [
        f"## {rule_set.capitalize()}: the three measures",
        "",
        "| claim | players | per contested position (search) | labels shuffled | its own move "
        "changed (n) | spread of true gains | judge's noise | exact apart | per deal: greedy "
        "(changed) | heuristic (changed) | search (changed) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for claim in claims_of(rule_set):
        for players in PLAYERS:
            c = page.contests[(rule_set, players, claim.id)]
            exact = f"{c.exact}: {c.exact_gain:+.2f}" if c.exact else "–"
            deals = [_deal_cell(page, base, rule_set, players, claim.id) for base in BASES]
            rows.append(
                f"| {claim.id} | {players} | {page.cell(c.gain, RARE)} | "
                f"{page.cell(c.shuffled, RARE)} | {page.cell(c.changed, RARE)} ({c.changed.n}) | "
                f"±{c.spread:.2f} | ±{c.noise:.2f} | {exact} | " + " | ".join(deals) + " |"
            )
    return rows + [""]


def _deal_cell(page: Page, base: str, rule_set: str, players: int, claim: str) -> str:
    w = page.worths.get((base, rule_set, players, claim))
    if w is None:
        return "–"
    changed = page.findings.changes.get((base, rule_set, players), {}).get(claim, 0.0)
    per = f", {w.mean / changed:+.2f} a change" if changed > 0 else ""
    return f"{page.cell(page.deal_measure(w))} ({changed:.2f}/deal{per})"


def stages_table(page: Page, rule_set: str) -> list[str]:
    rows = [
        f"### {rule_set.capitalize()}: by stage of the deal (every player count)",
        "",
        "| claim | " + " | ".join(f"{s} round" for s in STAGES) + " |",
        "|---|" + "---|" * len(STAGES),
    ]
    for claim in claims_of(rule_set):
        cells = [page.cell(page.contests[(rule_set, s, claim.id)].gain, RARE) for s in STAGES]
        rows.append(f"| {claim.id} | " + " | ".join(cells) + " |")
    return rows + [""]


def dose_table(page: Page, rule_set: str) -> list[str]:
    rows = [
        f"### {rule_set.capitalize()}: the heuristic's weights at 0, ½× and 2× against 1× (points "
        "a deal)",
        "",
        "| claim | weights | players | " + " | ".join(f"{d:g}×" for d in DOSES) + " |",
        "|---|---|---|" + "---|" * len(DOSES),
    ]
    for claim in (c for c in claims_of(rule_set) if c.weights):
        for players in PLAYERS:
            cells = []
            for dose in DOSES:
                w = page.worths.get(("heuristic", rule_set, players, dose_arm(claim.id, dose)))
                cells.append(page.cell(page.deal_measure(w)) if w else "–")
            rows.append(
                f"| {claim.id} | {', '.join(claim.weights)} | {players} | "
                + " | ".join(cells)
                + " |"
            )
    return rows + [""]
