"""Declare Thee Sir (Rich Smethurst, MWAN #82, 1996): regiments of stands in formations,
activated one card at a time, with rolled movement and ranges, morale points nobody knows
until first tested, push-backs, routs stand by stand and pursuit."""

from tertia.rulesets.declare_thee_sir.ruleset import DeclareTheeSir

__all__ = ["DeclareTheeSir"]
