"""Where a rule set's computer players live: the one declaration ``tertia.ai`` reads to
play a rule set (``RuleSet.AI``), so adding a rule set needs no table keyed by its id.

The references are ``"module:attribute"`` strings, resolved only when a player is wanted:
``core`` never imports ``ai``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

REFERENCE = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


@dataclass(frozen=True)
class AiSpec:
    """A rule set's players. ``proposer``: a function ``(game, state, rng) -> list of
    actions`` giving the random player candidates to pick among (the engine judges
    each). ``doctrine``: a class (or factory) taking no arguments whose instances play
    the rule set by its scripted doctrine (``tertia.ai.player.Player``); None while the
    rule set has none (asking for it then is refused in one line). ``baseline``: the
    doctrine's first edition, kept by name once a later edition is the ``doctrine``, so
    that the later can be measured against it (``tertia ladder``); None while the
    doctrine is still in its first edition, which is then the baseline.
    ``second_edition``: a later edition not yet the doctrine (it must first beat the
    baseline), played by name as the ``doctrine-2`` player."""

    proposer: str
    doctrine: str | None = None
    baseline: str | None = None
    second_edition: str | None = None

    def __post_init__(self) -> None:
        references = (("proposer", self.proposer), ("doctrine", self.doctrine), ("baseline", self.baseline),
                      ("second edition", self.second_edition))
        for what, ref in references:
            if ref is not None and not REFERENCE.fullmatch(ref):
                raise ValueError(f"AI {what} {ref!r} is not a 'module:attribute' reference")
