"""``tertia validate`` and ``tertia scenarios``."""

from __future__ import annotations
