"""Tertia: English Civil War tabletop battles on a free-movement table."""

__version__ = "0.1.0"
