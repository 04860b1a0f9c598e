"""A side's view of a battle as a fixed-size vector of numbers, for learning agents.

The vector is worked out from the side's own observation (:meth:`Game.observed_state
<tertia.core.game.Game.observed_state>`) and nothing else, so what the side may not see
cannot reach it. It holds one row per piece, in slots fixed for the battle (the pieces as
deployed, in the scenario's order; a slot never changes hands), padded with zeros to
:attr:`ObservationLayout.max_pieces`, then :data:`GLOBAL_FEATURES` and one slot for each
phase the rule set names, plus one for any other phase. A piece's row is
:data:`PIECE_FEATURES`, the same under every rule set, then the columns of the facts its
rule set declares (:mod:`tertia.research.facts`), the same for every battle of that rule
set.

Every value lies in [0, 1], but for the sine and cosine of a facing, in [-1, 1].
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from tertia.core.game import Game
from tertia.core.hidden import place_hidden
from tertia.core.state import GameState, UnitKind
from tertia.research.facts import FactColumns, fact_columns, row_values, unit_interval

KINDS: tuple[UnitKind, ...] = tuple(UnitKind)
"""The engine's kinds of piece, in the order of the kind one-hot."""

PIECE_FEATURES: tuple[str, ...] = (
    "present", "own",
    *(f"kind_{kind.value}" for kind in KINDS),
    "x", "y", "facing_sin", "facing_cos", "count", "in_play", "place_hidden",
)
"""One piece's row. ``present``: the slot holds a piece. ``own``: 1 for the observing
side's piece, 0 for another side's. ``kind_*``: the engine kind. ``x``, ``y``: its place
as a fraction of the table's width and depth (clipped to the table). ``facing_sin``,
``facing_cos``: its facing (degrees clockwise from north). ``count``: the count the rule
set draws on the base as a fraction of its limit (hits taken under larger-battles and the
D3 rules, figures left under Charge yr Pikes!), 0 where it shows none. ``in_play``: not
removed. ``place_hidden``: the side's view holds the piece without its place (a hidden
Charge yr Pikes! piece, whose place, facing and count then read 0)."""

GLOBAL_FEATURES: tuple[str, ...] = ("turn", "to_act", "active", "decision_pending")
"""After the pieces: the turn as a fraction of the scenario's turns (clipped to 1), whether
the observing side is the one the game awaits, whether it is the active side, and whether
a decision (a response, a choice) is awaited rather than a phase's play."""

_SIGNED = frozenset({"facing_sin", "facing_cos"})


@dataclass(frozen=True)
class ObservationLayout:
    """Where each value goes: the slot of each piece, the phases given a slot of their own,
    the table's size, the battle's length and the columns of the rule set's facts."""

    slots: tuple[str, ...]
    """Unit ids in slot order (the pieces as deployed)."""
    max_pieces: int
    phases: tuple[str, ...]
    width: float
    depth: float
    turns: int
    facts: tuple[FactColumns, ...] = ()
    """The columns each piece's row gives its rule set's declared facts, after
    :data:`PIECE_FEATURES`."""

    @classmethod
    def for_game(cls, game: Game, max_pieces: int | None = None) -> ObservationLayout:
        """The layout of ``game``: a slot for each piece deployed (``max_pieces`` slots in
        all, at least as many as there are pieces, when given), the phases named by the
        rule set's action kinds (``RuleSet.ACTION_KINDS``) and the columns of the facts
        its presentation declares."""
        deployed = tuple(game.deployed().units)
        size = len(deployed) if max_pieces is None else max_pieces
        if size < len(deployed):
            raise ValueError(f"max_pieces={max_pieces}: the battle deploys {len(deployed)} pieces")
        phases = sorted({phase for kind in game.ruleset.ACTION_KINDS for phase in kind.phases})
        return cls(slots=deployed, max_pieces=size, phases=tuple(phases), width=game.table.width,
                   depth=game.table.depth, turns=game.scenario.turns, facts=fact_columns(game))

    @cached_property
    def row_names(self) -> tuple[str, ...]:
        """The names of a piece's row: :data:`PIECE_FEATURES`, then its facts' columns
        (``fact.hits``, ``fact.hits.fraction`` ...)."""
        return (*PIECE_FEATURES, *(name for column in self.facts for name in column.names()))

    @property
    def row_width(self) -> int:
        """The values of one piece's row."""
        return len(self.row_names)

    @property
    def size(self) -> int:
        """The length of the vector."""
        return self.max_pieces * self.row_width + len(GLOBAL_FEATURES) + len(self.phases) + 1

    def names(self) -> list[str]:
        """What each value of the vector is, in order (``piece3.x``, ``piece3.fact.hits``,
        ``turn``, ``phase.combat``)."""
        rows = [f"piece{i}.{name}" for i in range(self.max_pieces) for name in self.row_names]
        return [*rows, *GLOBAL_FEATURES, *(f"phase.{p}" for p in self.phases), "phase.other"]

    @cached_property
    def _columns(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names())}

    def column(self, name: str) -> int:
        """The index of the entry :meth:`names` calls ``name`` (``piece3.fact.hits.fraction``);
        KeyError for a name it does not give."""
        return self._columns[name]

    def scale(self, key: str) -> float:
        """What the ``fact.<key>.number`` and ``.limit`` columns of fact ``key`` are divided
        by; KeyError for a fact the rule set does not declare."""
        scales = {column.key: column.scale for column in self.facts}
        return scales[key]

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The least and greatest value of each entry."""
        low = np.zeros(self.size, dtype=np.float32)
        signed = [i for i, name in enumerate(PIECE_FEATURES) if name in _SIGNED]
        for slot in range(self.max_pieces):
            low[[slot * self.row_width + i for i in signed]] = -1.0
        return low, np.ones(self.size, dtype=np.float32)

    def slot_order(self, view: GameState) -> list[str]:
        """The unit ids of ``view`` in slot order: the deployed pieces in their own slots,
        then any piece the battle added since, in the order the view holds them, as long
        as slots remain."""
        known = set(self.slots)
        added = [uid for uid in view.units if uid not in known]
        return [*self.slots, *added][: self.max_pieces]


def encode(game: Game, view: GameState, side: str, layout: ObservationLayout) -> npt.NDArray[np.float32]:
    """The vector of ``side``'s observation ``view`` (``game.observed_state(state, side)``)."""
    out = np.zeros(layout.size, dtype=np.float32)
    width = layout.row_width
    slots = {uid: slot for slot, uid in enumerate(layout.slot_order(view))}
    for uid, slot in slots.items():
        if uid in view.units:
            out[slot * width:(slot + 1) * width] = _piece_row(game, view, uid, side, layout, slots)
    at = layout.max_pieces * width
    out[at:at + len(GLOBAL_FEATURES)] = _global_row(view, side, layout)
    at += len(GLOBAL_FEATURES)
    phase = layout.phases.index(view.phase) if view.phase in layout.phases else len(layout.phases)
    out[at + phase] = 1.0
    return out


def _piece_row(game: Game, view: GameState, uid: str, side: str, layout: ObservationLayout,
               slots: Mapping[str, int]) -> Sequence[float]:
    """A piece's row: the generic values, then its facts as ``side`` sees them."""
    unit = view.units[uid]
    kinds = [1.0 if unit.kind is kind else 0.0 for kind in KINDS]
    if place_hidden(unit):
        hidden = [1.0, float(unit.side == side), *kinds, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        return hidden + [0.0] * (layout.row_width - len(hidden))
    card = game.ruleset.presentation().piece(game.table, view, uid, side)
    facts = row_values(layout.facts, (fact for fact, _ in card.facts), slots, layout.max_pieces)
    count = 0.0
    shown = card.base_count()
    if shown is not None and shown[0].limit and isinstance(shown[0].value, int | float):
        count = unit_interval(float(shown[0].value) / shown[0].limit)
    facing = math.radians(unit.facing)
    return [
        1.0, float(unit.side == side), *kinds,
        unit_interval(unit.x / layout.width), unit_interval(unit.y / layout.depth),
        math.sin(facing), math.cos(facing), count, float(unit.in_play), 0.0, *facts,
    ]


def _global_row(view: GameState, side: str, layout: ObservationLayout) -> Sequence[float]:
    return [
        unit_interval(view.turn / layout.turns), float(view.to_act == side), float(view.active == side),
        float(view.pending is not None),
    ]
