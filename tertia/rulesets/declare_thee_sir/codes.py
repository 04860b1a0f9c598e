"""Declare Thee Sir's own violation codes (see :mod:`tertia.core.violations`)."""

from __future__ import annotations

from tertia.core.violations import Codes


class DtsCode(Codes, namespace="declare-thee-sir"):
    """Refusals only Declare Thee Sir makes."""

    NOT_DECLARED = "the unit's commander has not declared that option"
    UNKNOWN_OPTION = "no such option"
    OPTION_NOT_OPEN = "the unit may not declare that option"
    UNKNOWN_FORMATION = "no such formation"
    FORMATION_NOT_ALLOWED = "the unit may not take up that formation"
    SAME_FORMATION = "the unit is already in that formation"
    ALREADY_MOVED = "the unit has already moved this activation"
    TOO_FAR = "the move is longer than the unit's rolled move"
    REARWARD = "a rearward move is made only under Rally"
    OBSTACLE = "an obstacle stops the unit"
    NO_VOLLEYS = "the unit has fired every volley its option gives"
    GENERAL_TARGET = "a general is no target"
