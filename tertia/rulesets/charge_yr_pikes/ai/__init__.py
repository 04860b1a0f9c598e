"""Charge yr Pikes!' computer players: its doctrine and the random player's candidates,
named by the rule set's ``AI`` declaration."""
