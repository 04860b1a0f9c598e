"""What the D3 rule sets' computer players share: a doctrine (in two editions) and the
random player's candidates, which ``d3-commands`` and ``d3-cards`` complete with their own
(``<rule set>/ai/``)."""
