"""The core every layer stands on: cards, rules, random streams, limits, table items, and the
Move / View / strategy protocol."""
