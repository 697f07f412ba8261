"""The workspace: every piece of a deal's state at a fixed offset in one flat int64 array.

Why one array: numba pays atomic reference counting each time an array is handed to a
jitted helper, and a deal makes thousands of helper calls. Keeping the whole state in one
workspace was measured to roughly double deals per second against separate arrays.
The rules array sits at the front (`Rules.to_array`: the knobs at `core.rules.KNOB_INDEX`,
then the values of each kind of card), so one compiled kernel serves every preset.

Why helpers take a raw pointer (``ws``, from `workspace_pointer`) rather than the array:
numba still increfs and decrefs (two atomic operations) an array argument in every helper
that can raise, and passes it as seven machine words; a pointer is one word and is not
reference counted. Only the entry points (`loop.entry.run`, `dealing.start_deck`) take the
array, which keeps it alive while its pointer is in use.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from simcasino.core.columns import COLUMN
from simcasino.core.jit import kernel
from simcasino.core.limits import GROUP_LIMIT, MOVE_LIMIT, OPTION_LIMIT, TABLE_LIMIT
from simcasino.core.rules import CARD_FACTS, KNOB_INDEX, RULES_LEN
from simcasino.core.rules import (
    CARD_VALUES as CARD_VALUES,
)  # where each kind of card's values start

MAX_PLAYERS = 6
HAND_CAP = 8
TABLE_CAP = TABLE_LIMIT  # captures are int64 bitmasks over table slots
MAX_VALUE = 16  # the largest capture value (Finnish 10♦ from hand)
BUCKET_CAP = GROUP_LIMIT  # groups of one value on one table
OPTION_CAP = OPTION_LIMIT  # distinct captures of one card
MOVE_CAP = MOVE_LIMIT  # legal moves of one player
KINDS = 52
DECK_CAP = 104  # card ids: two decks
# §6 Builds: a build lies in a table slot as id DECK_CAP + b, its value and owner in the BUILD_*
# regions, and its cards are marked in OWNER as -2 - b (a build is captured whole, so its cards
# need no order). Every seat owns at most one build at a time (a player owning one may only
# build onto it), so BUILD_CAP builds suffice.
BUILD_CAP = 8
ID_CAP = DECK_CAP + BUILD_CAP  # table slot ids: cards, then builds
# a capture's (points, cards, spades) packed in one integer; sums of packed keys stay exact
# (each part < 256), and comparing packed keys compares points, then cards, then spades
KEY_POINTS, KEY_CARDS = 1 << 16, 1 << 8

# result columns per seat, found by name in `core.columns.COLUMNS`
C_POINTS, C_CARDS, C_SPADES, C_ACES = (COLUMN[c] for c in ("points", "cards", "spades", "aces"))
C_BIG, C_SMALL, C_SISTAN = (COLUMN[c] for c in ("big_kasino", "small_kasino", "sistan"))
C_TABBES, C_SWEEPS, C_GIVEN = (COLUMN[c] for c in ("tabbes", "sweeps", "tabbes_given"))
C_CARDS_PTS, C_SPADES_PTS = (COLUMN[c] for c in ("cards_points", "spades_points"))
C_MULLES, C_MULLES_PTS, C_BUILDS, C_UNHELD = (
    COLUMN[c] for c in ("mulles", "mulles_points", "builds", "unheld_builds")
)
N_COLUMNS = len(COLUMN)
TALLY_COLUMNS = 5  # C_CARDS .. C_SMALL: counted card by card from the piles
assert (C_CARDS, C_SPADES, C_ACES, C_BIG, C_SMALL) == tuple(range(C_CARDS, C_CARDS + TALLY_COLUMNS))

# rules knobs
R_PLAYERS = KNOB_INDEX["players"]
R_ACE_HAND = KNOB_INDEX["ace_hand"]
R_ACE_TABLE = KNOB_INDEX["ace_table"]
R_SMALL_HAND = KNOB_INDEX["small_kasino_hand"]
R_BIG_HAND = KNOB_INDEX["big_kasino_hand"]
R_MUST_MAX = KNOB_INDEX["must_capture_max"]
R_SPADES_PTS = KNOB_INDEX["most_spades_points"]
R_SPADES_TIE = KNOB_INDEX["spades_tie"]
R_CARDS_PTS = KNOB_INDEX["most_cards_points"]
R_CARDS_TIE = KNOB_INDEX["cards_tie"]
R_ACE_PTS = KNOB_INDEX["ace_points"]
R_BIG_PTS = KNOB_INDEX["big_kasino_points"]
R_SMALL_PTS = KNOB_INDEX["small_kasino_points"]
R_SISTAN_PTS = KNOB_INDEX["sistan_points"]
R_TABBE_PTS = KNOB_INDEX["tabbe_points"]
R_MOKKI_LAST = KNOB_INDEX["mokki_last_round"]
R_MOKKI_LIMIT = KNOB_INDEX["mokki_limit"]
R_MOKKI_CANCEL = KNOB_INDEX["mokki_cancel"]
R_IMMEDIATE = KNOB_INDEX["immediate_scoring"]
R_TARGET = KNOB_INDEX["target"]
R_TIE_BREAK = KNOB_INDEX["tie_break"]
# §6 variants
R_PARTNERSHIP = KNOB_INDEX["partnership"]
R_DECKS = KNOB_INDEX["decks"]
R_HAND_CARDS = KNOB_INDEX["hand_cards"]
R_TABLE_CARDS = KNOB_INDEX["table_cards"]
R_MAX_CAPTURE = KNOB_INDEX["max_capture"]  # 0 most cards, 1 maximal (rules.MAX_CAPTURE)
R_MUST_CAPTURE = KNOB_INDEX["must_capture"]
R_OPPONENT_CHOOSES = KNOB_INDEX["opponent_chooses"]
R_SPADES_OVER = KNOB_INDEX["spades_over"]
R_SPADE_PTS = KNOB_INDEX["spade_points"]
R_PREVIOUS_PTS = KNOB_INDEX["tabbe_previous_points"]
R_DOUBLE_SWEEP = KNOB_INDEX["double_sweep"]
R_MULLE_PTS = KNOB_INDEX["mulle_points"]
R_MULLE_WITHIN = KNOB_INDEX["mulle_within"]
R_MULLE_VALUE = KNOB_INDEX["mulle_value"]
R_ACE_SPADES_PTS = KNOB_INDEX["ace_of_spades_points"]
R_BUILDS = KNOB_INDEX["builds"]
R_BUILD_PENALTY = KNOB_INDEX["build_penalty"]
R_LOW_WINS = KNOB_INDEX["low_wins"]
R_GAME_DEALS = KNOB_INDEX["game_deals"]
N_FACTS = len(CARD_FACTS)  # the values of one kind of card at CARD_VALUES (`Rules.card_values`)


LINE = 8  # int64 words in a 64-byte cache line
BUCKET_STRIDE = BUCKET_CAP + LINE  # words from one value's group bucket to the next (see Offsets)


class Offsets:
    """Hands out consecutive regions of the workspace.

    Why big regions are followed by a gap of a few cache lines: their sizes are powers of two,
    so back to back their starts (the entries in use: a turn lists a few moves) would share one
    set of the L1 and L2 caches and could evict each other; perf showed hot loads on the
    heuristic's move regions. For the same reason the value buckets lie BUCKET_STRIDE apart,
    not BUCKET_CAP. (The gain measured was small: about 2% of a heuristic deal.)"""

    def __init__(self, start: int) -> None:
        self.next = start

    def take(self, size: int) -> int:
        start, self.next = self.next, self.next + size
        if size >= 64 * LINE:
            self.next += 3 * LINE
        return start


_o = Offsets(RULES_LEN)
# per card id (kind = id % KINDS), derived from the rules by `captures.prepare_values`;
# indexed by id so the hot loops look a card up without dividing by KINDS
HAND_VALUE = _o.take(DECK_CAP)  # first value when played
HAND_VALUE2 = _o.take(DECK_CAP)  # second value when played (Swedish ace), else 0
HAND_BITS = _o.take(DECK_CAP)  # bit v for each value the card can be played as
# these five are per table slot id (ID_CAP): a build's entries are constants that keep it out
# of every sum of loose cards (TABLE_VALUE = MAX_VALUE + 1) and of every twin test (RANK_ORDER)
TABLE_VALUE = _o.take(ID_CAP)  # lowest value on the table
TABLE_HIGH = _o.take(ID_CAP)  # 1 if it may also count 13 more on the table (Swedish ace)
CARD_POINTS = _o.take(ID_CAP)  # aces and kasinos
CARD_KEY = _o.take(ID_CAP)  # (points, 1 card, spade) packed as KEY_POINTS/KEY_CARDS/1 units
RANK_ORDER = _o.take(ID_CAP)  # rank * KINDS + kind: sorts cards by rank, then suit
CARD_RANK = _o.take(
    DECK_CAP
)  # rank - 1 (0: ace): a load, where id % KINDS % 13 costs some 20 instructions
PLAYABLE_BITS = _o.take(1)  # bit v: some card can be played as v (what a build may declare)
CARD_TALLY = _o.take(DECK_CAP)  # what it adds to a pile's TALLY_COLUMNS, a byte each
COUNTS_CARDS = _o.take(
    1
)  # 1 if a seat's strategy counts the unseen cards (keep HIDDEN_* up to date)
HIDDEN_COUNTS_SIZE = 13 + MAX_VALUE + 3  # HIDDEN_RANK_N .. HIDDEN_THREATS
HIDDEN_AT_START = _o.take(HIDDEN_COUNTS_SIZE)  # the hidden-card counts of a whole deck
# the seats
UNITS = _o.take(1)  # §6 scoring units: teams in a partnership, else players
UNIT = _o.take(MAX_PLAYERS)  # per seat: its unit (seat % UNITS)
STRATEGY = _o.take(MAX_PLAYERS)
N_PARAMS = 48  # a strategy's parameters per seat, as integers (each strategy names its own slots)
SEAT_PARAMS = _o.take(MAX_PLAYERS * N_PARAMS)
# the deal: everything from DECK to STATE_END, so that a copy of it resumes the deal (search)
DECK = _o.take(DECK_CAP)
HAND = _o.take(MAX_PLAYERS * HAND_CAP)
HAND_N = _o.take(MAX_PLAYERS)
HAND_NEED = _o.take(MAX_PLAYERS)  # per seat: the HAND_BITS of its hand or-ed; kept up to date
TABLE = _o.take(TABLE_CAP)
OWNER = _o.take(ID_CAP)  # per card id: the seat whose pile holds it, or -1 (-2 - b: in build b);
# sized for slot ids, so that a capture may mark a build's id as it marks a card's (unread)
SWEEPS = _o.take(MAX_PLAYERS)
SCORED_SWEEPS = _o.take(MAX_PLAYERS)
IMMEDIATE = _o.take(MAX_PLAYERS)  # points scored at capture this deal (Finnish)
GAME_SCORE = _o.take(MAX_PLAYERS)  # game points before this deal
GIVEN = _o.take(MAX_PLAYERS)  # §6 per seat: scored tabbes the next seat made right after it
MULLES = _o.take(MAX_PLAYERS)  # §6 per seat
MULLE_SCORES = _o.take(MAX_PLAYERS)  # §6 per seat: points for mulles
BUILDS_MADE = _o.take(MAX_PLAYERS)  # §6 per seat: build moves
UNHELD = _o.take(MAX_PLAYERS)  # §6 per seat: builds made without holding their value
SEEN = _o.take(DECK_CAP)  # per card id: 1 once it has been on the table or played (public)
HIDDEN_RANK_N = _o.take(13)  # per rank (0: ace): cards not yet seen by everyone
HIDDEN_VALUE_N = _o.take(MAX_VALUE + 1)  # per value: cards not yet seen that can be played as it
HIDDEN_VALUES = _o.take(1)  # bit v: HIDDEN_VALUE_N[v] > 0
HIDDEN_THREATS = _o.take(
    1
)  # point cards not yet seen playable as 14, 15, 16: a count per value, a byte each
assert HIDDEN_THREATS + 1 - HIDDEN_RANK_N == HIDDEN_COUNTS_SIZE  # one copy from HIDDEN_AT_START
RESULT = _o.take(MAX_PLAYERS * N_COLUMNS)
PILE_TALLY = _o.take(MAX_PLAYERS)  # scratch for `deal.score_deal`: CARD_TALLY summed per pile
# scalars
TABLE_N = _o.take(1)
REACH = _o.take(
    1
)  # bit s: some subset of the loose table cards sums to s <= MAX_VALUE; kept up to date
BUILD_BITS = _o.take(1)  # §6 bit v: a build of value v lies on the table; kept up to date
BUILD_VALUE = _o.take(BUILD_CAP)  # §6 per build: declared value
BUILD_OWNER = _o.take(BUILD_CAP)  # the seat that last built on it
BUILD_DOUBLE = _o.take(BUILD_CAP)  # 1 for a double build (no longer raised)
BUILD_KEY = _o.take(BUILD_CAP)  # its cards' CARD_KEY summed
BUILD_POINTS = _o.take(BUILD_CAP)  # its cards' CARD_POINTS summed
BUILD_N = _o.take(BUILD_CAP)  # its number of cards (0: the entry is free)
DECK_N = _o.take(1)
NEXT_CARD = _o.take(1)
LAST_CAPTURER = _o.take(1)
LAST_ROUND = _o.take(1)
RNG = _o.take(1)  # the deal's random stream state (uint64 bits)
DEALER = _o.take(1)
# points a tied deal carries to the next (cards_tie / spades_tie = "carry"): most cards, most spades
CARRY_CARDS, CARRY_SPADES = range(2)
CARRY_IN = _o.take(2)
CARRY_OUT = _o.take(2)
TURNS_LEFT = _o.take(1)  # turns left in the current round (0: deal the next one)
TO_PLAY = _o.take(1)  # the seat whose turn comes next
STATE_END = _o.next
# scratch for move generation
GROUP_VALUES = _o.take(1)  # bit v: the current hand can play v and some group sums to v
BUCKET_N = _o.take(MAX_VALUE + 1)  # groups per value (valid for the values in GROUP_VALUES)
BUCKET = _o.take((MAX_VALUE + 1) * BUCKET_STRIDE)  # group masks, by value
BUCKET_KEY = _o.take((MAX_VALUE + 1) * BUCKET_STRIDE)  # each group's summed CARD_KEY
# results handed back through the workspace: a tuple returned from a call LLVM does not
# inline comes back through the stack as two 8-byte stores that the caller reloads as one
# 16-byte word, which stalls store-to-load forwarding (measured: ~5% of a greedy deal)
BEST_CARDS = _o.take(1)  # `captures.best_capture`'s best so far: cards (if they count) ...
BEST_KEY = _o.take(1)  # ... packed key ...
BEST_MASK = _o.take(1)  # ... and mask
CHOSEN_MASK = _o.take(1)  # the capture mask of the move a strategy chose (0: trail)
OPTIONS_N = _o.take(1)
OPTIONS = _o.take(OPTION_CAP)
MOVES_N = _o.take(1)
MOVE_SLOT = _o.take(MOVE_CAP)
MOVE_MASK = _o.take(MOVE_CAP)
STACK = _o.take(4 * (TABLE_CAP + 1))
SMALL_TABLE = 6  # tables this small list their groups from a table of all subset sums (a bitmap
# of those subsets fits one int64)
SUBSET = _o.take(3 << SMALL_TABLE)  # per mask: (low sum, high aces, summed CARD_KEY)
GROUPS_LISTED = _o.take(1)  # 1 once this turn's groups are in BUCKET (`captures.list_groups_once`)
TWIN = _o.take(TABLE_CAP)  # per table slot: the slot of an identical earlier card, or -1
STATE_SIZE = STATE_END - DECK
ENGINE_END = _o.next
# The advice's and the strategies' own memory follows ENGINE_END (`simcasino.engine.memory`):
# the mechanics read nothing there, so a strategy's scratch is declared by the strategy.


def new_workspace(rules_array: np.ndarray) -> np.ndarray:
    """A workspace of the engine's regions only, for the mechanics alone (no strategy plays in
    it)."""
    ws = np.zeros(ENGINE_END, dtype=np.int64)
    ws[: rules_array.shape[0]] = rules_array
    return ws


WsPointer = types.CPointer(types.int64)  # what helpers get as ``ws``


# --- named access to the per-seat regions (inlined: the same code as the offsets written out) ---


@kernel(inline="always")
def hand_at(seat: np.int64) -> np.int64:
    """Where the hand of ``seat`` starts (HAND_CAP a seat)."""
    return HAND + seat * HAND_CAP


@kernel(inline="always")
def hand_card(ws: WsPointer, seat: np.int64, slot: np.int64) -> np.int64:
    return ws[hand_at(seat) + slot]


@kernel(inline="always")
def hand_size(ws: WsPointer, seat: np.int64) -> np.int64:
    return ws[HAND_N + seat]


@kernel(inline="always")
def params_at(seat: np.int64) -> np.int64:
    """Where the strategy parameters of ``seat`` start (N_PARAMS a seat)."""
    return SEAT_PARAMS + seat * N_PARAMS


@kernel(inline="always")
def param(ws: WsPointer, seat: np.int64, k: np.int64) -> np.int64:
    """Parameter ``k`` of the strategy of ``seat``."""
    return ws[params_at(seat) + k]


@kernel(inline="always")
def result_row(seat: np.int64) -> np.int64:
    """Where the RESULT row of ``seat`` starts (N_COLUMNS a seat)."""
    return RESULT + seat * N_COLUMNS


@intrinsic
def workspace_pointer(typingctx, workspace):
    """The data pointer of an int64 workspace array, indexable like the array (``ws[i]``)."""
    if not (isinstance(workspace, types.Array) and workspace.dtype == types.int64):
        return None
    sig = WsPointer(workspace)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen
