"""What a piece and the position show under larger-battles: hits against the hit limit
(Routing, with support, cover and a river's bank), ammunition, a gun that has fired, a
commander's value and the general; the distances drawn round a piece; the score and the
orders left (Victory, Orders)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from tertia.activation.panels import orders_panel
from tertia.core.geometry import base_distance
from tertia.core.presentation import (
    Ending,
    Fact,
    FactKind,
    FactSpec,
    Panel,
    PanelContext,
    PanelItem,
    PanelSection,
    Presentation,
    redeclared,
)
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.vocabulary import ATTACK_PLAN, ORDERS, capitalise
from tertia.rules.hit_facts import (
    FIRED,
    FOUGHT,
    GENERAL,
    HITS,
    MOVED,
    OUT_OF_AMMUNITION,
    VALUE,
    commander_facts,
    commander_title,
    hits_facts,
    names_of,
    turn_facts,
)
from tertia.rules.measuring import iter_enemy_troops_within
from tertia.rules.sight import has_line_of_sight
from tertia.rules.victory import ENDED_AT_TURN_LIMIT, ENDED_WIPED_OUT
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.combat import declared_attacks
from tertia.rulesets.larger_battles.commanders import COMMAND_REACH, DEPLOY_RADIUS
from tertia.rulesets.larger_battles.losses import units_lost
from tertia.rulesets.larger_battles.movement import ENEMY_ZONE
from tertia.rulesets.larger_battles.orders import PURPOSES, is_ordered, orders_left
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.routing import hit_limit, is_defending_river, keeps_cover, supporters
from tertia.rulesets.larger_battles.victory import OBJECTIVE_TAKEN, scores

SUPPORTED_BY = FactSpec("supported_by", "Supported by", FactKind.WORD,
                        "Similar units within 3\" (two raise the hit limit)", clauses.ROUTING)
IN_COVER = FactSpec("in_cover", "In cover", FactKind.FLAG,
                    "Dragoons keeping the cover of a town or hedged field", clauses.ROUTING)
DEFENDING_RIVER = FactSpec("defending_river", "Defending a river", FactKind.FLAG,
                           "Defending a river's bank against enemies across it", clauses.RIVERS)
ENGAGED = FactSpec("engaged", "Enemies within 3\"", FactKind.WORD, "Enemy troops within 3\"",
                   clauses.ENEMY_UNITS)


ORDERED = FactSpec("ordered", "Ordered", FactKind.BADGE,
                   "Under an order this turn (its own or its command's)", clauses.ORDERS, glyph="⚑",
                   on_base=True)
FOUGHT_MARKS = ("attacked", "supported", "bombarded")

MOST_BASE_HIT_LIMIT = 20
"""The highest hit limit by troop type the options allow (``hit_limit_*``, Routing Units)."""
LIMIT_RAISES = 3
"""What may raise a unit's hit limit, by one each: cover, a river's bank, support (Routing)."""
# A unit routs on reaching its limit, one hit at a time, so its hits never pass the highest limit.
BOUNDED_HITS = replace(HITS, most=MOST_BASE_HIT_LIMIT + LIMIT_RAISES)


class LargerBattlesPresentation(Presentation):
    """larger-battles' pieces and position as its front ends show them."""

    FACTS = redeclared((HITS, OUT_OF_AMMUNITION, FIRED, ORDERED, MOVED, FOUGHT, SUPPORTED_BY, IN_COVER,
                        DEFENDING_RIVER, ENGAGED, GENERAL, VALUE), BOUNDED_HITS)
    BREAKDOWN_TITLE = "Victory points by source (How to Win)"
    ENDINGS = (Ending("an objective was taken", OBJECTIVE_TAKEN, decided=True), ENDED_WIPED_OUT,
               ENDED_AT_TURN_LIMIT)
    BREAKDOWN_LABELS: ClassVar[Mapping[str, str]] = {
        "routed_enemy_units": "For enemy units routed", "supplies_attacked": "For enemy supplies attacked",
        "commanders_lost": "For commanders lost", "enemy_reduced_by_half": "For the enemy reduced by half",
        "objectives_taken": "For objectives taken"}
    """Each item is the victory points it adds or subtracts ("Subtract 2 points for each
    commander lost"): -2 for commanders lost is a deduction, not two commanders."""

    def facts(self, table: Battlefield, seen: GameState, unit: Unit, viewer: str | None) -> Iterable[Fact]:
        if unit.kind is UnitKind.COMMANDER:
            return commander_facts(unit)
        options = self.ruleset.options
        if unit.in_play:
            limit = hit_limit(table, seen, unit, options)
            out = hits_facts(unit, limit.value, limit.increases)
        else:  # its limit was where it stood when it went; where its base lies now raises none
            out = hits_facts(unit, None)
        out += turn_facts(seen, unit, FOUGHT_MARKS)
        out.append(Fact(ORDERED.key, any(is_ordered(seen, unit, purpose) for purpose in PURPOSES)))
        if unit.in_play:
            out += [
                Fact(SUPPORTED_BY.key, names_of(seen, (s.id for s in supporters(seen, unit)))),
                Fact(IN_COVER.key, keeps_cover(table, seen, unit, options)),
                Fact(DEFENDING_RIVER.key, is_defending_river(table, seen, unit)),
                Fact(ENGAGED.key, names_of(seen, (e.id for e in iter_enemy_troops_within(seen, unit, 3.0)))),
            ]
        return out

    def title(self, seen: GameState, unit: Unit) -> str | None:
        return commander_title(unit)

    def overlays(self, table: Battlefield, seen: GameState, unit_id: str) -> dict[str, Any]:
        """Combat range and the 45-degree arc, the 3" stop near the enemy, commanders'
        3" reach and 12" deployment, guns' 24" directly ahead with line of sight."""
        u = seen.units[unit_id]
        zones: list[dict[str, Any]] = []
        arcs: list[dict[str, Any]] = []
        sight: list[dict[str, Any]] = []
        p = profile(u.kind)
        if u.kind is UnitKind.COMMANDER:
            zones.append({"kind": "reach", "radius": COMMAND_REACH,
                          "label": "3\" commander's reach", "rule": clauses.COMMANDER_RALLY})
            zones.append({"kind": "deploy", "radius": DEPLOY_RADIUS,
                          "label": "12\" deployment radius", "rule": clauses.DEPLOYMENT})
        elif p.combat_range > 0:
            zones.append({"kind": "enemy", "radius": ENEMY_ZONE,
                          "label": "3\": movement stops near the enemy", "rule": clauses.ENEMY_UNITS})
            arcs.append({"half_angle": 45.0, "reach": p.combat_range,
                         "label": f"{p.combat_range:g}\" combat range, 45-degree arc",
                         "rule": clauses.COMBAT_FRONT})
        if u.kind is UnitKind.ARTILLERY:
            arcs.append({"half_angle": 0.0, "reach": p.bombard_range,
                         "label": f"{p.bombard_range:g}\" bombardment, directly in front",
                         "rule": clauses.BOMBARD_RANGE})
            for e in seen.iter_troops(seen.opponent(u.side)):
                if base_distance(u.base, e.base) <= p.bombard_range:
                    sight.append({"target": e.id, "clear": has_line_of_sight(table, seen, u, e)})
        return {"zones": zones, "arcs": arcs, "sight": sight}

    def panel(self, name: str, seen: GameState, context: PanelContext) -> Panel:
        """The orders left this player turn (Orders), and the attack plan (Combat: attacks
        declared together, then fought one by one): the viewer's declared attacks still
        to fight, while it is its turn to fight them."""
        if name == ORDERS:
            return orders_panel(seen, context, orders_left(seen))
        if name != ATTACK_PLAN:
            return Panel()
        declared = declared_attacks(seen)
        if context.viewer != seen.to_act or seen.pending is not None or not declared:
            return Panel()
        return Panel((PanelSection("declared", tuple(
            PanelItem(f"{seen.units[a.attacker].label} on {seen.units[a.target].label} …",
                      unit=a.attacker, target=a.target)
            for a in declared if a.attacker in seen.units and a.target in seen.units), "list",
            title=f"{capitalise(context.whose(context.viewer))} attacks are declared: fight each in turn."),))

    def summary(self, state: GameState) -> dict[str, Any]:
        """The score so far (Victory), units lost, and orders left this player turn."""
        return {
            "score": scores(state, self.ruleset.options),
            "units_lost": {s: units_lost(state, s) for s in state.sides},
            "orders_left": orders_left(state),
        }
