"""Tactics beyond the rule books, and a card that wins points: a search over the rules of
`advice.conditions` (a move test and the conditions when it applies), each measured by what a
player of a stated level gains a deal when made to follow it, and a strategy card built from
the rules that pay.

A finding is a claim about what a person should do, so each figure measures the decision a
player faces: adopt the rule (``greedy:follow=RULE``) or play as before (``greedy``), against
the same free players, on paired decks (every deck once per seat rotation, `adoption_worth`),
2 players, Swedish and Finnish. Three seeds, so no figure is judged on the decks that chose it:

1. **screen** (``seed``): every move test alone and under each single condition of
   `CONDITIONS`, then the `EXTEND` best conditioned rules with a second condition, and the
   `TAUGHT` rules of each rule set that bring the player's moves nearest the search's own
   (`teacher`: read off the search's choices at the player's positions, up to three
   conditions);
2. **validate** (``seed + 1``): the `KEEP` best by screened worth, summed over the two rule
   sets and in each alone (at most `PER_TEST` of one move test in each), and each claim's
   refined form (its best screened rule with a condition, in the claim's own rule set, of
   those that changed some move),
   measured again in both rule sets on fresh decks; their intervals
   form one family (Bonferroni over every rule and rule set validated), and each gets its
   verdict word (`verdict.adoption`);
3. **cards** (``seed + 2``), one for both games (worth summed) and one for each: forward selection
   on the screening decks among the validated rules to adopt in some of its rule sets and in none
   not to (the rule that adds most to the card so far, in card order, until none adds
   `verdict.DEAL_MARGIN` a deal), then the card as a whole measured on the third seed's fresh decks,
   at most `advice.conditions.MAX_RULES` rules; beside the 2 players it was chosen for, at 3 and 4
   (with as many deals: the decks divided by n − 1).

Every measurement is kept in the run folder as it is made (``<level>.json``), so a stopped
search resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from simcasino.advice.claims import CLAIMS, FINNISH, SWEDISH, preference_ids
from simcasino.advice.conditions import MAX_RULES, parse_rule
from simcasino.core.rules import Rules
from simcasino.findings.teacher import read_rules, record_lessons, strategy
from simcasino.findings.verdict import DEAL_MARGIN, Family, Measured, adoption
from simcasino.provenance import provenance
from simcasino.simulation import simulate

RULE_SETS = (SWEDISH, FINNISH)
CONDITIONS = (
    "",
    "last-round",
    "stock<=8",
    "stock<=16",
    "stock>16",
    "stock>32",
    "table<=1",
    "table<=2",
    "table>2",
    "table>4",
    "hand<=1",
    "hand<=2",
    "hand>2",
    "points-out<=2",
    "points-out>2",
)
EXTEND = 12  # conditioned rules given a second condition
TAUGHT = 12  # rules read off the teacher a rule set (`teacher`), screened beside the others
KEEP = 24  # rules validated
PER_TEST = 3  # of them at most this many of one move test
CHECK_PLAYERS = (2, 3, 4)  # the card is chosen at 2 players and checked at each of these
CARDS = ("", *RULE_SETS)  # a card for both games (chosen on their sum), and one for each


@dataclass(frozen=True)
class Budget:
    """Decks a measurement (each once per seat rotation) in each stage, and the first seed."""

    name: str
    screen: int
    validate: int
    card: int
    card_check: int
    seed: int = 35
    taught: int = 0  # deals a rule set whose decisions the teacher is asked about (0: none)


QUICK = Budget("quick", screen=1_000, validate=4_000, card=2_000, card_check=10_000, taught=20)
FULL = Budget("full", screen=10_000, validate=60_000, card=20_000, card_check=200_000, taught=400)


@dataclass(frozen=True)
class Measure:
    """One rule (or card) followed by a level of player against the same player free: points a
    deal (follower − free) with its standard error, on ``decks`` decks of ``seed``."""

    stage: str
    follow: str
    rule_set: str
    mean: float
    se: float
    decks: int
    seed: int
    made: str = ""  # the commit and library versions it was measured with (`provenance`)


class Ledger:
    """Every measurement of one level, kept in a JSON file as it is made (a resumed search
    reads them back rather than playing them again)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        rows = json.loads(path.read_text()) if path.exists() else []
        self.rows = {(r["stage"], r["follow"], r["rule_set"]): Measure(**r) for r in rows}

    def measure(
        self,
        level: str,
        stage: str,
        follow: str,
        rule_set: str,
        decks: int,
        seed: int,
        players: int = 2,
    ) -> Measure:
        table = table_name(rule_set, players)
        key = (stage, follow, table)
        if key not in self.rows:
            mean, se = adoption_worth(
                level, follow, Rules.preset(rule_set).replace(players=players), decks, seed
            )
            self.rows[key] = Measure(stage, follow, table, mean, se, decks, seed, provenance())
            self.path.write_text(json.dumps([asdict(m) for m in self.rows.values()], indent=0))
        return self.rows[key]


def table_name(rule_set: str, players: int) -> str:
    """``swedish`` for 2 players, ``swedish-3p`` for 3."""
    return rule_set if players == 2 else f"{rule_set}-{players}p"


def table_rules(name: str) -> Rules:
    """The rules of a `table_name`."""
    rule_set, _, players = name.partition("-")
    return Rules.preset(rule_set).replace(players=int(players.rstrip("p") or 2))


def adoption_worth(
    level: str, follow: str, rules: Rules, decks: int, seed: int
) -> tuple[float, float]:
    """Points a deal ``level`` gains by following ``follow`` against free players of its level,
    with the standard error: every deck once per seat rotation (the follower in seat r, the
    free player in the others), a deck's value its rotations' mean of the follower's points
    less the others' mean, as `simcasino.compare` pairs them."""
    players = rules.players
    values = np.zeros(decks)
    for seat in range(players):
        lineup = [level] * players
        lineup[seat] = f"{level}:follow={follow}"
        points = (
            simulate(rules, lineup, deals=decks, seed=seed)["points"]
            .to_numpy()
            .reshape(decks, players)
        )
        values += points[:, seat] - (points.sum(axis=1) - points[:, seat]) / (players - 1)
    values /= players
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(decks))


@dataclass(frozen=True)
class Discovery:
    """What a search found for one level: how many rules were screened, the validated ones
    (per rule set), their family, and per card of `CARDS` its rules in order and its check on
    fresh decks."""

    level: str
    screened: int
    validated: dict[str, dict[str, Measure]]  # rule -> rule set -> measure
    family: Family
    cards: dict[str, tuple[str, ...]]  # "" (both games) or a rule set -> the card's rules
    checks: dict[str, dict[str, Measure]]  # the same -> table (`table_name`) -> the card's measure

    def verdict(self, rule: str, rule_set: str) -> str:
        m = self.validated[rule][rule_set]
        return adoption(Measured(m.mean, m.se, m.decks), self.family, DEAL_MARGIN)


def single_rules() -> list[str]:
    """Every move test, alone and under each single condition."""
    return [p + (f"@{c}" if c else "") for p in preference_ids() for c in CONDITIONS]


def extended_rules(best: Iterable[str]) -> list[str]:
    """Each rule of ``best`` with a second condition, on another quantity than its first."""
    out: dict[
        str, None
    ] = {}  # in order, each once: A&B and B&A are one rule, written in CONDITIONS order
    for text in best:
        first = parse_rule(text).when[0]
        for extra in CONDITIONS[1:]:
            if parse_rule(f"S1@{extra}").when[0].quantity != first.quantity:
                prefer, condition = text.split("@")
                pair = sorted((condition, extra), key=CONDITIONS.index)
                out[f"{prefer}@{pair[0]}&{pair[1]}"] = None
    return list(out)


def taught_rules(level: str, folder: Path, deals: int, seed: int) -> list[str]:
    """The `TAUGHT` best rules read off the search for ``level`` (`teacher.read_rules`) in
    each rule set, on ``deals`` deals of ``seed``; kept in ``folder``, so a resumed search
    reads them back instead of asking the search again."""
    path = folder / f"{level}-taught.json"
    if path.exists():
        return list(json.loads(path.read_text()))
    pupil, found = strategy(level), {}
    for rule_set in RULE_SETS:
        lessons = record_lessons(Rules.preset(rule_set), deals, seed, pupil)
        best = read_rules(lessons, CONDITIONS, pupil)[:TAUGHT]
        found.update(dict.fromkeys(c.rule.text for c in best))
    path.write_text(json.dumps(list(found)))
    return list(found)


def discover(
    level: str, folder: Path, budget: Budget, say: Callable[[str], None] = print
) -> Discovery:
    """The search for ``level`` (greedy, heuristic …) on ``budget``, kept in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    ledger = Ledger(folder / f"{level}.json")
    screen, validate, card_seed = budget.seed, budget.seed + 1, budget.seed + 2

    def worth(
        stage: str, follow: str, decks: int, seed: int, games: Sequence[str] = RULE_SETS
    ) -> float:
        return sum(ledger.measure(level, stage, follow, r, decks, seed).mean for r in games)

    singles = single_rules()
    say(
        f"{level}: screening {len(singles)} rules x {len(RULE_SETS)} rule sets, {budget.screen:,} "
        "decks each"
    )
    scores = {t: worth("screen", t, budget.screen, screen) for t in singles}
    conditioned = sorted((t for t in singles if "@" in t), key=scores.__getitem__, reverse=True)[
        :EXTEND
    ]
    pairs = extended_rules(conditioned)
    say(f"{level}: screening {len(pairs)} rules with two conditions")
    scores.update({t: worth("screen", t, budget.screen, screen) for t in pairs})
    if budget.taught:
        say(f"{level}: reading the search's choices at {budget.taught:,} deals a rule set")
        taught = [t for t in taught_rules(level, folder, budget.taught, screen) if t not in scores]
        say(f"{level}: screening {len(taught)} more rules read off the search")
        scores.update({t: worth("screen", t, budget.screen, screen) for t in taught})
    best = list(
        dict.fromkeys(
            t
            for games in CARDS
            for t in _diverse(
                sorted(
                    scores,
                    key=lambda t: worth("screen", t, budget.screen, screen, _games(games)),
                    reverse=True,
                )
            )
        )
    )
    refined = refined_forms(
        scores, lambda t, r: ledger.measure(level, "screen", t, r, budget.screen, screen)
    )
    kept = list(dict.fromkeys([*best, *refined]))
    say(
        f"{level}: validating the best {len(best)} and each claim's best refined form in its rule "
        f"set ({len(kept)} in all) on fresh decks (seed {validate}), {budget.validate:,} decks each"
    )
    validated = {
        t: {
            r: ledger.measure(level, "validate", t, r, budget.validate, validate) for r in RULE_SETS
        }
        for t in kept
    }
    family = Family(len(kept) * len(RULE_SETS))
    cards, checks = {}, {}
    for games in CARDS:
        pool = [t for t in kept if _adoptable({r: validated[t][r] for r in _games(games)}, family)]
        card = _forward(
            lambda rules: worth(
                "card", _card_file(folder, level, rules), budget.card, screen, _games(games)
            ),
            pool,
            say,
            f"{level} ({games or 'both games'})",
        )
        say(
            f"{level}: the card of {len(card)} rules for {games or 'both games'} on fresh decks "
            f"(seed {card_seed}), {budget.card_check:,} decks"
        )
        cards[games] = tuple(card)
        checks[games] = (
            {
                table_name(r, p): ledger.measure(
                    level,
                    "check",
                    _card_file(folder, level, card),
                    r,
                    budget.card_check // (p - 1),
                    card_seed,
                    p,
                )
                for p in CHECK_PLAYERS
                for r in _games(games)
            }
            if card
            else {}
        )
    return Discovery(level, len(scores), validated, family, cards, checks)


def _games(card: str) -> tuple[str, ...]:
    """The rule sets a card of `CARDS` is for ("": both)."""
    return (card,) if card else RULE_SETS


def _adoptable(measures: dict[str, Measure], family: Family) -> bool:
    """May a validated rule go on a card: "adopt it" in some of its rule sets and "don't" in
    none?"""
    words = [
        adoption(Measured(m.mean, m.se, m.decks), family, DEAL_MARGIN) for m in measures.values()
    ]
    return "adopt it" in words and "don't" not in words


def refined_forms(rules: Collection[str], screened: Callable[[str, str], Measure]) -> list[str]:
    """Each claim's refined form: of its rules with a condition, the best screened in the
    claim's own rule set, among those that changed some move there (a form that never applied
    says nothing of the claim; a claim with none for this level has no refined form)."""
    forms = []
    for claim in CLAIMS:
        for rule_set in claim.rule_sets:
            mine = [
                t
                for t in rules
                if "@" in t and parse_rule(t).prefer == claim.id and screened(t, rule_set).se > 0
            ]
            forms += [max(mine, key=lambda t: screened(t, rule_set).mean)] if mine else []
    return forms


def _diverse(ranked: Sequence[str]) -> list[str]:
    """The best `KEEP` of ``ranked`` (best first), at most `PER_TEST` of each move test, so
    the card chooses among different tactics rather than one tactic's near-copies."""
    kept: list[str] = []
    for text in ranked:
        if sum(t.split("@")[0] == text.split("@")[0] for t in kept) < PER_TEST:
            kept.append(text)
    return kept[:KEEP]


def _forward(
    worth: Callable[[Sequence[str]], float],
    pool: Sequence[str],
    say: Callable[[str], None],
    level: str,
) -> list[str]:
    """Rules added one at a time, each the one that adds most to the card so far (in card
    order: an earlier rule wins), while one adds at least `DEAL_MARGIN` a deal."""
    card: list[str] = []
    best = 0.0
    while len(card) < MAX_RULES:
        trials = {t: worth([*card, t]) for t in pool if t not in card}
        if not trials:
            break
        rule = max(trials, key=trials.__getitem__)
        if trials[rule] < best + DEAL_MARGIN * len(RULE_SETS):
            break
        card.append(rule)
        best = trials[rule]
        say(
            f"{level}: card rule {len(card)}: {rule} (the card {best / len(RULE_SETS):+.3f} a "
            "deal, screening decks)"
        )
    return card


def _card_file(folder: Path, level: str, rules: Sequence[str]) -> str:
    """A card file of ``rules`` in the run folder, named by its content so a resumed search
    finds its measurements again."""
    body = "".join(f'[[rule]]\nrule = "{t}"\nlevel = "{level}"\n' for t in rules)
    path = folder / "cards" / f"{level}-{hashlib.sha1(body.encode()).hexdigest()[:12]}.toml"
    path.parent.mkdir(exist_ok=True)
    if not path.exists():
        path.write_text(body)
    return str(path)
