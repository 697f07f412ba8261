"""The rule books' advice, a layer below the players: what a seat can see (`sight`), what the
table offers after a move (`left`), the claims of docs/rules.md §7 and the simple tests as
move tests (`claims`), rules with the conditions when they apply and the strategy cards
(`conditions`, the shipped card `strategy_card.toml`), and the move filter every strategy
takes, ``follow=`` (`follow`).

Why its own layer: a claim says what a person should do, so what it means must not depend on
how a player weighs moves. The heuristic imports the advice (its terms ask the table the same
questions); the advice imports no player, so retuning the heuristic cannot change a claim, and
a player made to follow a rule compiles the advice, not the heuristic.
"""
