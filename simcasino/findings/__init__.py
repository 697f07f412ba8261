"""The findings: every strategic claim of docs/rules.md §7, measured and published in words.

Modules, one concept each: `claims` (the registry: what each says, its switch), `ablation`
(the heuristic with and without each claim, through the experiment runner), `audit` (the
positions where a claim decides the move, judged by a strong evaluator), `verdict` (the
words), `run` (a whole findings run into one folder, resumable; the quick and full budgets)
and `page` (docs/findings.md and its figures).
"""

from simcasino.findings.page import write_page
from simcasino.findings.run import FULL, QUICK, Budget, Findings, estimate_full, run_findings

__all__ = ["FULL", "QUICK", "Budget", "Findings", "estimate_full", "run_findings", "write_page"]
