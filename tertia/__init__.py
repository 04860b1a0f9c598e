"""Tertia: English Civil War tabletop battles on a free-movement table."""

from tertia import _build

__version__ = "0.1.0"

_build.on_import()  # refuse extensions compiled from older sources; TERTIA_PURE_PYTHON=1 skips them
