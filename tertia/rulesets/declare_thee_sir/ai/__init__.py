"""Declare Thee Sir's computer players: its doctrine (with its generals' riding and its
judgement of a charge or a volley) and the random player's candidates, named by the rule
set's ``AI`` declaration."""
