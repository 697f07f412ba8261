"""The result columns of one seat in one deal: the one list both engines fill (the kernel at
the offsets `engine.layout` derives from it, the reference engine by name in
`reference.deal.SeatResult`, whose fields say what each counts) and every table of deals shows."""

COLUMNS = (
    "points",
    "cards",
    "spades",
    "aces",
    "big_kasino",
    "small_kasino",
    "sistan",
    "tabbes",
    "sweeps",
    "cards_points",
    "spades_points",
    "mulles",
    "tabbes_given",
    "mulles_points",
    "builds",
    "unheld_builds",
)
VARIANT_COLUMNS = (
    "mulles",
    "mulles_points",
    "builds",
    "unheld_builds",
)  # columns that only some variants fill
COLUMN = {name: i for i, name in enumerate(COLUMNS)}
