"""The project's rule book, docs/rules.md, defines everything the repository cites from it.

Pure file reading (no simcasino import), so it runs in a moment:

- every rule id (R-…) and tactic claim id (S1–S8, F1–F5) cited in the code, tests, benchmarks,
  experiment specs, README and the other docs is defined in docs/rules.md, once, as a bold id
  at the start of its definition;
- every section number cited (§6, §7.2, …) is a heading of docs/rules.md;
- LICENSE exists and is the MIT license that pyproject.toml declares.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

from helpers.paths import ROOT

RULE_BOOK = ROOT / "docs" / "rules.md"
LICENSE = ROOT / "LICENSE"

RULE_ID = re.compile(r"(?<![\w-])R-[A-Z][A-Z0-9-]*[A-Z0-9]")
CLAIM_ID = re.compile(r"\b[SF][1-8]\b")
SECTION = re.compile(r"§\s?(\d)(?:\.(\d))?")
# a definition: a line (or list item) that starts with the id in bold
DEFINITION = re.compile(r"^[ \t]*(?:[-*+][ \t]+|\d+\.[ \t]+)?\*\*(R-[A-Z][A-Z0-9-]*[A-Z0-9]|[SF][1-8])\*\*", re.M)
HEADING = re.compile(r"^#{1,6}[ \t]+§(\d)(?:\.(\d))?(?![.\d])", re.M)

# the files that cite the rule book: folder, file name patterns
CITING = (
    ("simcasino", ("*.py",)),
    ("src", ("*.py",)),
    ("tests", ("*.py",)),
    ("benchmarks", ("*.py",)),
    ("strategies", ("*.py",)),
    ("experiments", ("*.toml", "*.py")),
    ("docs", ("*.md",)),
)
SKIP_PARTS = {".git", "__pycache__", "build", "dist"}

# the ids of the source rule book (and R-BUILD, which the code cites): all must stay defined
SOURCE_RULE_IDS = (
    "R-DECK R-VAL R-ACE-SE R-VAL-FI R-DEAL R-REDEAL R-LAST R-ROTATE R-TURN R-CAPTURE R-OPTIONAL "
    "R-PILE R-TABBE R-SISTAN R-MOKKI-LAST R-MOKKI-10 R-MOKKI-CANCEL R-TARGET R-BUILD"
).split()
SOURCE_CLAIM_IDS = [f"S{i}" for i in range(1, 9)] + [f"F{i}" for i in range(1, 6)]


def citing_files() -> list[Path]:
    """Every file that may cite the rule book (not the rule book itself, nor this test)."""
    found = {ROOT / "README.md"} if (ROOT / "README.md").is_file() else set()
    for folder, patterns in CITING:
        for pattern in patterns:
            for path in (ROOT / folder).rglob(pattern):
                if path.is_file() and not SKIP_PARTS & set(path.relative_to(ROOT).parts) \
                        and not any(p.endswith(".egg-info") for p in path.parts):
                    found.add(path)
    found.discard(RULE_BOOK)
    found.discard(Path(__file__).resolve())
    found.discard(Path(__file__))
    return sorted(found)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def citations(pattern: re.Pattern, files: list[Path]) -> dict[str, list[str]]:
    """What ``pattern`` matches, each with the files (relative to the repository) citing it."""
    cited: dict[str, set[str]] = defaultdict(set)
    for path in files:
        for match in pattern.finditer(read(path)):
            cited[match.group(0)].add(path.relative_to(ROOT).as_posix())
    return {k: sorted(v) for k, v in cited.items()}


def definitions() -> Counter:
    return Counter(DEFINITION.findall(read(RULE_BOOK)))


def headings() -> set[str]:
    return {f"{a}.{b}" if b else a for a, b in HEADING.findall(read(RULE_BOOK))}


def section_citations(files: list[Path]) -> dict[str, list[str]]:
    cited: dict[str, set[str]] = defaultdict(set)
    for path in files:
        for a, b in SECTION.findall(read(path)):
            cited[f"{a}.{b}" if b else a].add(path.relative_to(ROOT).as_posix())
    return {k: sorted(v) for k, v in cited.items()}


def _missing_message(missing: dict[str, list[str]], what: str) -> str:
    return "; ".join(f"{key} cited in {', '.join(files)} is not {what}" for key, files in sorted(missing.items()))


def test_rule_book_exists() -> None:
    assert RULE_BOOK.is_file(), f"{RULE_BOOK.relative_to(ROOT)} is missing: the code, tests and specs cite it"


def test_every_cited_id_is_defined() -> None:
    files = citing_files()
    assert files, "no files found that could cite the rule book: has the layout changed?"
    rule_ids = citations(RULE_ID, files)
    assert rule_ids, "no rule ids (R-…) cited anywhere: the scan found nothing, has the layout changed?"
    cited = {**rule_ids, **citations(CLAIM_ID, files)}
    defined = definitions()
    missing = {key: where for key, where in cited.items() if key not in defined}
    assert not missing, _missing_message(missing, "defined in docs/rules.md (as a bold id starting its definition)")


def test_every_source_id_is_defined_once() -> None:
    defined = definitions()
    absent = [key for key in SOURCE_RULE_IDS + SOURCE_CLAIM_IDS if key not in defined]
    assert not absent, f"docs/rules.md does not define {', '.join(absent)} (as a bold id starting its definition)"
    twice = sorted(key for key, n in defined.items() if n > 1)
    assert not twice, f"docs/rules.md defines {', '.join(twice)} more than once"


def test_rule_book_cites_only_its_own_ids() -> None:
    text = read(RULE_BOOK)
    defined = definitions()
    used = set(RULE_ID.findall(text))
    undefined = sorted(used - set(defined))
    assert not undefined, f"docs/rules.md mentions {', '.join(undefined)} but does not define it"
    sections = {f"{a}.{b}" if b else a for a, b in SECTION.findall(text)}
    absent = sorted(sections - headings())
    assert not absent, f"docs/rules.md cites §{', §'.join(absent)} but has no such heading"


def test_every_cited_section_is_a_heading() -> None:
    have = headings()
    cited = section_citations(citing_files())
    missing = {f"§{key}": where for key, where in cited.items() if key not in have}
    assert not missing, _missing_message(missing, "a heading of docs/rules.md")
    wanted = [str(n) for n in range(1, 8)] + [f"7.{n}" for n in range(1, 8)]
    absent = [key for key in wanted if key not in have]
    assert not absent, f"docs/rules.md lacks the headings §{', §'.join(absent)} (§1–§7, §7.1–§7.7 as in the source)"


def test_license_is_mit() -> None:
    assert LICENSE.is_file(), "LICENSE is missing (pyproject.toml declares MIT)"
    text = read(LICENSE)
    assert re.search(r"\bMIT License\b", text), "LICENSE does not name the MIT license"
    assert "Permission is hereby granted, free of charge" in text, "LICENSE lacks the MIT permission notice"
