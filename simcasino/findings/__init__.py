"""The findings: every claim of docs/rules.md §7 measured and published in words.

Modules, one concept each: `claims` (the registry: what each says, its words, its weights),
`contest` (the contested positions of the search's play, judged on paired worlds), `worth`
(each base player made to follow a claim against itself free, per deal, and the heuristic's
dose–response), `verdict` (the one family of intervals and the words), `run` (a whole
findings run into one folder, resumable; the quick and full budgets) and `page`
(findings.md, its figures and the strategy card). The move tests themselves are
`simcasino.advice.claims`.
"""

from simcasino.findings.page import verdict_lines, write_page
from simcasino.findings.run import FULL, QUICK, Budget, Findings, estimate_full, run_findings

__all__ = [
    "FULL",
    "QUICK",
    "Budget",
    "Findings",
    "estimate_full",
    "run_findings",
    "verdict_lines",
    "write_page",
]
