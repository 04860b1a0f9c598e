"""The D3 rule sets' own violation codes (see :mod:`tertia.core.violations`)."""

from __future__ import annotations

from tertia.core.violations import Codes


class D3Code(Codes, namespace="d3"):
    """Refusals only the D3 rule sets make: charges, cohesion, rallies, weather, deployment."""

    CANNOT_CHARGE = "the unit may not charge"
    CHARGE_TURN = "a charge turns more than the rules allow"
    FACE_TAKEN = "the face charged is already taken"
    COHESION = "the move would break the command's cohesion"
    NO_RALLIES_LEFT = "the side has no rallies left"
    NOT_JOINED = "the commander has not joined the unit"
    WEATHER = "the weather forbids it"
    BAD_DEPLOYMENT = "the piece may not be deployed there"
    TOWN_OCCUPIED = "only one unit may occupy a town"
