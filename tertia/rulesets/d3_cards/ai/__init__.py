"""d3-cards' computer players: the D3 doctrine (both editions) and candidates with its
commanders' rallies and its guns, named by the rule set's ``AI`` declaration."""
