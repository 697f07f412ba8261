"""Kasino for game-AI toolkits: an OpenSpiel game, a PettingZoo environment, OpenSpiel's bots.

Every module here drives the public deal state (`simcasino.DealState`) and nothing below it
imports this package. The shared pieces need only numpy: `actions` (the fixed action space
both interfaces speak: a card, then what it does), `parameters` (the rules as game
parameters) and `encoding` (what a seat observes, as strings and tensors). The interfaces
need their extras: `openspiel_game` and `openspiel_bots` (``pip install 'simcasino[openspiel]'``),
`pettingzoo_env` (``pip install 'simcasino[rl]'``). docs/interop.md shows them at work.
"""
