"""The doctrine for Charge yr Pikes!, second edition (the ``doctrine-2`` player, until it
beats the first and becomes the doctrine): the first edition's general
(:mod:`~tertia.rulesets.charge_yr_pikes.ai.doctrine`), whose foot now form square only
against horse that could actually charge them as things stand: its way to them clear of
other pieces, the charge ending on the table, and its swing and run within its charge
move (Close combat 12 A; Movement 5 B). The first edition formed square against any
enemy horse within 32", a horse's charge move, which covers most of the table, so its
foot stood in square all battle at half their move.
"""

from __future__ import annotations

from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine


def second_edition() -> CypDoctrine:
    """A player of the second edition."""
    return CypDoctrine(squares_against_reach=True)
