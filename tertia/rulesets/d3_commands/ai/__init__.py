"""d3-commands' computer players: the D3 doctrine (both editions) and candidates with its
command cards, its secret card order and its deployment, named by the rule set's ``AI``
declaration."""
