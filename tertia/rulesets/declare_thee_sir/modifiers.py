"""The modifiers of fire (Game Mechanics 4b, 4c) and melee (5c), line by line.

Fire: "-1 if target is in forlorn hope or carole, -2 if target is behind hard cover or
firer has poor morale". Melee: "Target in Long March or attacked in rear = +4. General
attached to attacker, target mounted carole or forlorn hope, or flank attack = +2. Target
behind hard cover, attacker in forlorn hope, or cavalry attacking hedgehog = -2."

Each line of the text is one modifier, applied once however many of its conditions hold
(a target in long march attacked in the rear is +4, not +8), and the lines add: the text
joins each line's conditions with "or", as one number. Fire's two lines are read the same
way, so a firer of poor morale shooting at a target behind hard cover has -2.

What the text leaves open is read so:

- **behind hard cover**: hard cover is a town's buildings, a wall or an entrenchment
  (:data:`HARD_COVER`). A unit is behind it against a foe when its centre is inside such
  an area and the foe's is not, or when the line between their centres crosses a wall or
  an entrenchment that it holds: under fire, the one whose centre is the nearer to it; in
  melee, the target, which was attacked across it (the attacker comes over the wall, the
  defender holds it). Hedges and fences are not hard.
- **poor morale**: a tested unit with no points left; an untested firer is not poor (its
  points are determined when it is fired upon or melees, not when it fires).
- **forlorn hope and caracole** (Optional Rules a, b): a unit standing in one has the
  formation ``"forlorn_hope"`` or ``"caracole"``.
- **rear and flank**: which face of the target the attacker's centre lies beyond (split
  by the target's diagonals, :func:`tertia.core.geometry.face_towards`); a hedgehog faces
  every way and has neither.
- **cavalry**: mounted troops, horse and mounted dragoons.
"""

from __future__ import annotations

import shapely
from shapely.geometry import LineString

from tertia.core.geometry import Face, face_towards
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rulesets.declare_thee_sir.data import CARACOLE, FORLORN_HOPE, HEDGEHOG, LONG_MARCH
from tertia.rulesets.declare_thee_sir.points import attached_general, is_poor
from tertia.rulesets.declare_thee_sir.values import unit_data

HARD_COVER: tuple[str, ...] = (TerrainKind.TOWN, TerrainKind.WALL, TerrainKind.ENTRENCHMENT)
"""The ground that is hard cover: buildings, walls and earthworks."""

GENERAL_ATTACHED = "general attached to the attacker"
"""Melee c's condition for the attacker's general, as a modifier names it."""

Modifier = tuple[int, str]
"""One line's value and the conditions that made it apply."""


def behind_hard_cover(table: Battlefield, target: Unit, foe: Unit, *, attacked: bool = False) -> bool:
    """Is ``target`` behind hard cover against ``foe`` (see the module's note)?
    ``attacked``: in melee, where the target holds a wall between them."""
    cover = table.features_near(HARD_COVER, (target.x, target.y), (foe.x, foe.y))
    if not cover:
        return False
    me, them = shapely.Point(target.x, target.y), shapely.Point(foe.x, foe.y)
    line = LineString(((foe.x, foe.y), (target.x, target.y)))
    for feature in cover:
        shape = feature.geometry
        if not feature.is_linear:
            mine, theirs = bool(shape.covers(me)), bool(shape.covers(them))
            if mine or theirs:
                if mine and not theirs:
                    return True
                continue
        if bool(line.intersects(shape)) and (
                attacked or float(shape.distance(me)) < float(shape.distance(them))):
            return True
    return False


def attacked_face(attacker: Unit, target: Unit) -> Face:
    """The face of ``target`` the attacker comes at: beyond which of its edges the
    attacker's centre lies; always the front of a hedgehog, which faces all round."""
    if unit_data(target).formation == HEDGEHOG:
        return Face.FRONT
    return face_towards(target.base, attacker.base.centre)


def fire_modifiers(table: Battlefield, firer: Unit, target: Unit) -> tuple[Modifier, ...]:
    """Fire b and c: the lines that apply to this shot."""
    out: list[Modifier] = []
    light = [why for why, holds in (
        ("target in forlorn hope", unit_data(target).formation == FORLORN_HOPE),
        ("target in caracole", unit_data(target).formation == CARACOLE)) if holds]
    if light:
        out.append((-1, " and ".join(light)))
    hard = [why for why, holds in (
        ("target behind hard cover", behind_hard_cover(table, target, firer)),
        ("firer of poor morale", is_poor(firer))) if holds]
    if hard:
        out.append((-2, " and ".join(hard)))
    return tuple(out)


def melee_modifiers(table: Battlefield, state: GameState, attacker: Unit, target: Unit
                    ) -> tuple[Modifier, ...]:
    """Melee c: the lines that apply to this fight."""
    mine, theirs = unit_data(attacker), unit_data(target)
    face = attacked_face(attacker, target)
    lines: tuple[tuple[int, tuple[tuple[str, bool], ...]], ...] = (
        (4, (("target in long march", theirs.formation == LONG_MARCH),
             ("attacked in the rear", face is Face.REAR))),
        (2, ((GENERAL_ATTACHED, attached_general(state, attacker.id) is not None),
             ("target in caracole", theirs.formation == CARACOLE),
             ("target in forlorn hope", theirs.formation == FORLORN_HOPE),
             ("flank attack", face in (Face.LEFT, Face.RIGHT)))),
        (-2, (("target behind hard cover", behind_hard_cover(table, target, attacker, attacked=True)),
              ("attacker in forlorn hope", mine.formation == FORLORN_HOPE),
              ("cavalry attacking a hedgehog", mine.is_mounted and theirs.formation == HEDGEHOG))),
    )
    out: list[Modifier] = []
    for value, conditions in lines:
        why = [name for name, holds in conditions if holds]
        if why:
            out.append((value, " and ".join(why)))
    return tuple(out)


def total(modifiers: tuple[Modifier, ...]) -> int:
    return sum(value for value, _ in modifiers)
