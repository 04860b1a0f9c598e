"""``tertia battle``, ``replay``, ``inspect`` and ``rules``."""

from __future__ import annotations
