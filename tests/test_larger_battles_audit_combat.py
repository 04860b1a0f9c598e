"""Combat fidelity (larger-battles 1.1): the cavalry bonus when defending, rivers and
dragoon cover judged by who attacked whom this turn, flank attackers, and every attack of
a phase declared together. Worked with scripted dice, and exact odds computed by hand."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.analysis.odds import odds
from tertia.cli.main import app
from tertia.core.actions import Action, EndPhase
from tertia.core.dice import ScriptedDice, SeededDice
from tertia.core.events import Event, Narrated
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import Attack, AttackResolved
from tertia.rules.hits import piece
from tertia.rulesets.larger_battles.actions import DeclareAttacks, Encourage
from tertia.rulesets.larger_battles.ai.doctrine import LargerBattlesDoctrine
from tertia.rulesets.larger_battles.combat import declared_attacks
from tertia.rulesets.larger_battles.routing import hit_limit

from .support import P, R, act, codes, commander, make_game, position, unit

RIVER = {"type": "river", "line": [[0, 20], [72, 20]], "width": 2}
TOWN = {"type": "town", "polygon": [[20, 0], [40, 0], [40, 12.5], [20, 12.5]]}


def limit(game: Game, state: GameState, uid: str) -> int:
    return hit_limit(game.table, state, state.units[uid], game.ruleset.options).value


def with_hits(state: GameState, **hits: int) -> GameState:
    for uid, n in hits.items():
        state = state.with_unit(state.units[uid].evolve(hits=n))
    return state


def resolved(events: list[Event]) -> list[AttackResolved]:
    return [e for e in events if isinstance(e, AttackResolved)]


def declare_and_fight(game: Game, state: GameState, attacks: tuple[Attack, ...],
                      dice: list[int]) -> tuple[GameState, list[Event]]:
    """Declare ``attacks`` together, then fight each that is still possible, in order."""
    scripted = ScriptedDice(dice)
    state, events = game.apply(state, DeclareAttacks(attacks=attacks), scripted)
    for a in attacks:
        fight = Attack(attacker=a.attacker, target=a.target)
        if game.is_legal(state, fight):
            state, more = game.apply(state, fight, scripted)
            events = [*events, *more]
    assert scripted.remaining == 0 and not declared_attacks(state)
    return state, events


def duel(a_kind: str, t_kind: str, *extra: dict, **options: object) -> tuple[Game, GameState]:
    game = make_game([
        unit("a", P, a_kind, 30, 10, command="right" if a_kind == "horse" else None),
        unit("t", R, t_kind, 30, 15, 180, command="left" if t_kind == "horse" else None), *extra,
    ], **options)  # type: ignore[arg-type]
    return game, position(game, phase="combat")


# --- Assess Casualties 2: "Cavalry. Add 1 except when attacking infantry with pikes." ----


def test_attacking_cavalry_add_one_except_against_pike_armed_infantry() -> None:
    """Row 69, attacking: +1 against horse and commanded shot (no pikes), none against foot."""
    for t_kind, score in (("foot", 3), ("commanded_shot", 4), ("horse", 4)):
        game, state = duel("horse", t_kind)
        _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
        assert resolved(events)[0].attacker_score == score, t_kind


@pytest.mark.parametrize(("reading", "against_pikes", "against_dragoons"), [
    ("literal", 4, 4), ("not-against-pikes", 3, 4), ("attacking-only", 3, 3),
])
def test_defending_cavalry_bonus_by_option(reading: str, against_pikes: int, against_dragoons: int) -> None:
    """Row 69, defending: by default (``literal``) the exception names only attacking, so
    cavalry attacked by pike-armed foot keep their +1; ``not-against-pikes`` takes it away
    against pikes only; ``attacking-only`` gives defending cavalry nothing."""
    game, state = duel("foot", "horse", cavalry_bonus=reading)
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3, 6])
    assert resolved(events)[0].defender_score == against_pikes
    game, state = duel("dragoons", "horse", cavalry_bonus=reading)
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events)[0].defender_score == against_dragoons


def test_odds_of_foot_attacking_cavalry_under_each_reading() -> None:
    """Foot with muskets (D6+1) against cavalry: ``literal`` D6+1, so both sides hit on
    15/36; ``not-against-pikes`` D6, so the foot hit when a >= d (21/36) and are hit when
    d >= a+2 (10/36)."""
    game, state = duel("foot", "horse")
    s = odds(game, state, Attack(attacker="a", target="t")).summary
    assert s["target_hits_exact"]["1"] == Fraction(15, 36)
    assert s["attacker_hits_exact"]["1"] == Fraction(15, 36)
    game, state = duel("foot", "horse", cavalry_bonus="not-against-pikes")
    s = odds(game, state, Attack(attacker="a", target="t")).summary
    assert s["target_hits_exact"]["1"] == Fraction(21, 36)
    assert s["attacker_hits_exact"]["1"] == Fraction(10, 36)


# --- Routing 2, Rivers -------------------------------------------------------------------


def river_game(*extra: dict) -> Game:
    """``a`` (parliament) north of the river facing south; ``t`` (royalist) south of it."""
    return make_game([unit("a", P, "foot", 30, 22.5, 180), unit("t", R, "foot", 30, 17.5, 0),
                      *extra], terrain=[RIVER])


def test_a_unit_holding_its_bank_keeps_the_bonus_in_either_turn() -> None:
    """Row 81: every enemy within 3" across the river, whichever side is playing."""
    game = river_game()
    for active in (P, R):
        state = position(game, phase="combat", active=active)
        assert (limit(game, state, "t"), limit(game, state, "a")) == (4, 4)
    alone = make_game([unit("t", R, "foot", 30, 17.5), unit("far", P, "foot", 30, 30, 180)],
                      terrain=[RIVER])
    assert limit(alone, position(alone), "t") == 3  # no enemy near: not defending


def test_the_defender_keeps_the_river_bonus_and_the_attacker_loses_it() -> None:
    """Row 81, both sides of one attack across the river: the defender with 3 hits does not
    rout at 4; the attacker that crossed to fight is no longer defending and routs at 3."""
    game = river_game()
    state = with_hits(position(game, phase="combat"), t=2, a=2)
    after, _ = act(game, state, Attack(attacker="a", target="t"), [5, 2, 6])
    assert piece(after.units["t"]).hits == 3 and after.units["t"].in_play
    assert limit(game, after, "t") == 4 and limit(game, after, "a") == 3
    after, _ = act(game, state, Attack(attacker="a", target="t"), [1, 6, 6])
    assert after.units["a"].removed == "routed"  # 3 hits, limit 3 while it attacks
    # The next player turn it holds its bank again.
    state = with_hits(position(game, phase="combat", active=R), a=3)
    assert limit(game, state, "a") == 4 and state.units["a"].in_play


def test_a_unit_attacking_across_the_river_loses_the_bonus_at_once() -> None:
    """Row 81 with Routing's "reassess immediately": a unit at 3 hits holding its bank
    routs as soon as it declares an attack across, and its attack rolls nothing."""
    game = river_game()
    state = with_hits(position(game, phase="combat"), a=3)
    after, events = act(game, state, Attack(attacker="a", target="t"), [])
    assert after.units["a"].removed == "routed" and not resolved(events)


def test_only_the_units_that_attacked_count() -> None:
    """Row 81, "all attacking units are on the opposite river bank": an enemy on the
    same bank that does not attack does not cancel the bonus; one that supports does."""
    same_bank = unit("b", P, "dragoons", 35, 17.5, 270)  # beside t, south of the river
    game = river_game(same_bank)
    state = with_hits(position(game, phase="combat"), t=2)
    assert limit(game, state, "t") == 3  # before any attack: an enemy on its own bank
    after, _ = act(game, state, Attack(attacker="a", target="t"), [5, 2, 6])
    assert piece(after.units["t"]).hits == 3 and after.units["t"].in_play
    after, _ = act(game, state, Attack(attacker="a", target="t", supports=("b",)), [5, 2, 6])
    assert after.units["t"].removed == "routed"


def test_odds_of_an_attack_across_a_river() -> None:
    """Foot (2 hits) attack foot (2 hits) across a river: D6+1 against D6. The target's 3rd
    hit (a+1 > d: 21/36) no longer routs it; the attacker's 3rd hit (d > a+1: 10/36) does."""
    game = river_game()
    state = with_hits(position(game, phase="combat"), t=2, a=2)
    s = odds(game, state, Attack(attacker="a", target="t")).summary
    assert s["target_hits_exact"]["1"] == Fraction(21, 36) and s["target_routed_exact"] == 0
    assert s["attacker_routed_exact"] == Fraction(10, 36)


# --- Terrain 2 and 3, Routing 1: "Defending Dragoons benefit" ----------------------------


def cover_game(**options: object) -> Game:
    """Dragoons ``d`` in a town, facing a royalist foot unit north of it."""
    return make_game([unit("d", P, "dragoons", 30, 10), unit("t", R, "foot", 30, 15, 180)],
                     terrain=[TOWN], **options)  # type: ignore[arg-type]


def test_dragoons_in_cover_gain_one_when_defending_and_not_elsewhere() -> None:
    """Rows 48 and 80: dragoons in a town or hedged field, attacked, have limit 3; the same
    dragoons in an open field, or foot in the town, gain nothing."""
    hedged = {"type": "field", "hedged": True, "polygon": [[0, 30], [12, 30], [12, 40], [0, 40]]}
    open_field = {"type": "field", "polygon": [[50, 30], [62, 30], [62, 40], [50, 40]]}
    game = make_game([unit("d", P, "dragoons", 30, 10), unit("h", P, "dragoons", 6, 35),
                      unit("o", P, "dragoons", 56, 35), unit("f", P, "foot", 24, 5),
                      unit("t", R, "foot", 30, 15, 180)], terrain=[TOWN, hedged, open_field])
    state = position(game, phase="combat", active=R)
    assert [limit(game, state, u) for u in ("d", "h", "o", "f")] == [3, 3, 2, 3]
    # Attacked in the town with a hit already, a second hit does not rout them.
    after, _ = act(game, with_hits(state, d=1), Attack(attacker="t", target="d"), [6, 1, 6])
    assert piece(after.units["d"]).hits == 2 and after.units["d"].in_play


@pytest.mark.parametrize(("cover_while", "routed"), [("holding", True), ("always", False)])
def test_dragoons_attacking_out_of_cover_lose_it_for_the_turn(cover_while: str, routed: bool) -> None:
    """Row 48, ``dragoon_cover_while``: dragoons that attack out of their town lose the +1
    for that player turn (``holding``, the default) and rout at their second hit; with
    ``always`` they keep it. In the enemy's next turn the cover is back."""
    game = cover_game(dragoon_cover_while=cover_while)
    state = with_hits(position(game, phase="combat"), d=1)
    after, _ = act(game, state, Attack(attacker="d", target="t"), [1, 6])
    assert (after.units["d"].removed == "routed") is routed
    if not routed:
        assert limit(game, after, "d") == 3
    assert limit(game, with_hits(position(game, phase="combat", active=R), d=2), "d") == 3


def test_dragoons_supporting_out_of_cover_lose_it_too() -> None:
    """Row 48: a supporting unit attacks as well, so it leaves its cover; routed at once,
    it adds nothing to the roll."""
    game = make_game([unit("d", P, "dragoons", 30, 10), unit("a", P, "dragoons", 35, 10),
                      unit("t", R, "foot", 32.5, 15, 180)], terrain=[TOWN])
    state = with_hits(position(game, phase="combat"), d=2)
    assert limit(game, state, "d") == 3
    after, events = act(game, state, Attack(attacker="a", target="t", supports=("d",)), [3, 3])
    assert after.units["d"].removed == "routed"
    assert resolved(events)[0].attacker_score == 3 and resolved(events)[0].supports == ()


def test_odds_of_dragoons_attacking_out_of_a_town() -> None:
    """Dragoons (1 hit) against foot, D6 against D6: they lose on 15/36 and, out of their
    cover, that second hit routs them; with ``always`` it never does."""
    game = cover_game()
    state = with_hits(position(game, phase="combat"), d=1)
    s = odds(game, state, Attack(attacker="d", target="t")).summary
    assert s["attacker_routed_exact"] == Fraction(15, 36)
    game = cover_game(dragoon_cover_while="always")
    s = odds(game, with_hits(position(game, phase="combat"), d=1),
             Attack(attacker="d", target="t")).summary
    assert s["attacker_routed_exact"] == 0


# --- The author's ruling: flank and rear attackers ---------------------------------------


def flank_game(*extra: dict, **options: object) -> Game:
    """``t`` faces south; ``a`` is at its front, ``f`` on its east flank facing it."""
    return make_game([unit("a", P, "dragoons", 30, 10), unit("f", P, "dragoons", 35, 15, 270),
                      unit("t", R, "foot", 30, 15, 180), *extra], **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("lone_flanker", "hits"), [("no-hits", 0), ("fights-normally", 1)])
def test_a_lone_flank_attacker_takes_no_hits(lone_flanker: str, hits: int) -> None:
    """Row 100: attacking a flank with no frontal attack on the target, the flanker is the
    primary (the target turns to face it) but takes no hit when it loses (``no-hits``);
    ``fights-normally`` restores the hit."""
    game = flank_game(lone_flanker=lone_flanker)
    state = position(game, phase="combat")
    after, _ = act(game, state, Attack(attacker="f", target="t"), [1, 6])
    assert piece(after.units["f"]).hits == hits and after.units["t"].facing == pytest.approx(90.0)
    after, _ = act(game, state, Attack(attacker="f", target="t"), [6, 1])
    assert piece(after.units["t"]).hits == 1


def test_odds_of_a_lone_flank_attack() -> None:
    """Dragoons on a flank, D6 against D6: the target is hit on 15/36, the flanker never
    (``fights-normally``: 15/36)."""
    game = flank_game()
    s = odds(game, position(game, phase="combat"), Attack(attacker="f", target="t")).summary
    assert s["target_hits_exact"]["1"] == Fraction(15, 36) and s["attacker_hits_exact"] == {"0": 1}
    game = flank_game(lone_flanker="fights-normally")
    s = odds(game, position(game, phase="combat"), Attack(attacker="f", target="t")).summary
    assert s["attacker_hits_exact"]["1"] == Fraction(15, 36)


def test_a_flanker_supports_the_frontal_attack_and_cannot_split_it() -> None:
    """Row 99/100: with a frontal attack on the same target the flanker supports it (+1,
    no hits); declaring it as a separate roll is refused, and so are two flank attacks on
    one target, or a flanker leading a frontal unit."""
    game = flank_game(unit("r", P, "dragoons", 30, 20, 180))  # r at t's rear
    state = position(game, phase="combat")
    split = DeclareAttacks(attacks=(Attack(attacker="a", target="t"), Attack(attacker="f", target="t")))
    assert codes(game, state, split) == ["larger-battles.FLANK_PRIMARY"]
    two_flanks = DeclareAttacks(attacks=(Attack(attacker="f", target="t"), Attack(attacker="r", target="t")))
    assert codes(game, state, two_flanks) == ["larger-battles.FLANK_PRIMARY"]
    assert codes(game, state, Attack(attacker="f", target="t", supports=("a",))) \
        == ["larger-battles.FLANK_PRIMARY"]
    after, events = act(game, state, Attack(attacker="a", target="t", supports=("f", "r")), [1, 6])
    assert resolved(events)[0].attacker_score == 3
    assert [piece(after.units[u]).hits for u in ("a", "f", "r")] == [1, 0, 0]


def test_a_flanking_support_obeys_the_support_restriction() -> None:
    """Row 100: a flanker within 3" of another enemy that nobody attacks may not support."""
    game = flank_game(unit("o", R, "foot", 40, 19, 180))
    state = position(game, phase="combat")
    assert codes(game, state, Attack(attacker="a", target="t", supports=("f",))) == ["fighting.BAD_SUPPORT"]


def test_flank_or_front_is_judged_when_the_attacks_are_declared() -> None:
    """Row 100: ``b`` is at the target's front when declared; after the target turns to
    face ``a`` it stands beyond the target's flank, yet it fights as a frontal attacker and
    takes its hit."""
    game = make_game([unit("a", P, "dragoons", 25, 11), unit("b", P, "dragoons", 35, 11),
                      unit("t", R, "foot", 30, 15, 180)])
    state = position(game, phase="combat")
    both = (Attack(attacker="a", target="t"), Attack(attacker="b", target="t"))
    after, _ = declare_and_fight(game, state, both, [5, 2, 2, 5])
    assert piece(after.units["t"]).hits == 1 and piece(after.units["b"]).hits == 1
    assert not after.is_marked("flanking", "b") and after.marked("attack_targets") == ("t",)


# --- Supporting Units: judged against every attack of the phase ---------------------------


def two_fronts() -> Game:
    """``s`` could support ``a`` against ``t`` but stands within 3" of ``o`` too."""
    return make_game([unit("a", P, "dragoons", 30, 10), unit("s", P, "dragoons", 34.5, 12),
                      unit("b", P, "dragoons", 40, 10), unit("t", R, "foot", 30, 15, 180),
                      unit("o", R, "foot", 39, 15, 180)])


def test_support_does_not_depend_on_the_order_of_the_attacks() -> None:
    """Row 74: "a unit cannot support if it is within 3" of an enemy unit which is not
    being attacked this turn", judged against every attack declared: ``s`` may support
    whichever attack comes first, and may not when ``o`` is attacked by nobody."""
    game = two_fronts()
    state = position(game, phase="combat")
    with_s = Attack(attacker="a", target="t", supports=("s",))
    on_o = Attack(attacker="b", target="o")
    assert codes(game, state, with_s) == ["fighting.BAD_SUPPORT"]
    for order in ((with_s, on_o), (on_o, with_s)):
        assert codes(game, state, DeclareAttacks(attacks=order)) == []
    after, events = declare_and_fight(game, state, (with_s, on_o), [3, 3, 1, 6])
    assert [(e.attacker, e.attacker_score) for e in resolved(events)] == [("a", 4), ("b", 1)]
    assert piece(after.units["t"]).hits == 1 and piece(after.units["b"]).hits == 1


def test_attacks_are_declared_once_a_phase() -> None:
    """Row 74: the phase's attacks are declared together; a later declaration is refused,
    so no support can be made legal by attacking in a chosen order."""
    game = two_fronts()
    state = position(game, phase="combat")
    after, _ = act(game, state, Attack(attacker="b", target="o"), [3, 3])
    assert codes(game, after, Attack(attacker="a", target="t", supports=("s",))) == ["core.ALREADY_ACTED"]
    assert codes(game, after, Attack(attacker="a", target="t")) == ["core.ALREADY_ACTED"]
    assert codes(game, state, DeclareAttacks(attacks=())) == ["core.CANNOT_ACT"]


def test_an_attack_made_impossible_rolls_nothing_but_its_target_was_attacked() -> None:
    """Row 74: ``b`` (3 hits, limit 4 with two foot beside it) routs when ``l`` routs in
    the first combat; its declared attack on ``t2`` rolls nothing (``t2`` still counts as
    attacked this turn) and the next declared attack goes on."""
    game = make_game([unit("l", P, "foot", 24, 10), unit("b", P, "foot", 29, 10),
                      unit("c", P, "foot", 34, 10), unit("t1", R, "foot", 24, 15, 180),
                      unit("t2", R, "foot", 29, 15, 180), unit("t3", R, "foot", 34, 15, 180)])
    state = with_hits(position(game, phase="combat"), l=2, b=3)
    assert limit(game, state, "b") == 4
    declared = (Attack(attacker="l", target="t1"), Attack(attacker="b", target="t2"),
                Attack(attacker="c", target="t3"))
    # l: 1+1 against 6, then its ammunition; c: 6+1 against 1, then its ammunition.
    after, events = declare_and_fight(game, state, declared, [1, 6, 6, 6, 1, 6])
    assert after.units["l"].removed == "routed" and after.units["b"].removed == "routed"
    assert [e.attacker for e in resolved(events)] == ["l", "c"] and piece(after.units["t3"]).hits == 1
    assert after.is_marked("attack_targets", "t2")
    assert any(isinstance(e, Narrated) and "not made" in e.text for e in events)


def test_each_attack_waits_for_the_defending_commander_in_turn() -> None:
    """Row 74 with Commanders: the declared attacks are fought one by one (each with its
    own odds before its dice); one whose target has a commander near waits for the
    defender's answer; the phase ends only when all have been fought. The commander's
    encouragement is spent on the first (once a turn)."""
    game = make_game([unit("a", P, "horse", 30, 10, command="right"),
                      unit("b", P, "horse", 40, 10, command="right"),
                      unit("t", R, "horse", 30, 15, 180, command="left"),
                      unit("u", R, "horse", 40, 15, 180, command="left")],
                     commanders=[commander("k", R, 30, 19, command="left")])
    state = position(game, phase="combat")
    declared = DeclareAttacks(attacks=(Attack(attacker="a", target="t"), Attack(attacker="b", target="u")))
    state, _ = act(game, state, declared, [])
    assert codes(game, state, EndPhase()) == ["core.CANNOT_ACT"]  # the declared attacks come first
    waiting, _ = act(game, state, Attack(attacker="a", target="t"), [])
    assert waiting.pending is not None and waiting.pending["attack"]["target"] == "t"
    after, events = act(game, waiting, Encourage(commander="k"), [3, 3, 6])
    assert [(e.target, e.defender_score) for e in resolved(events)] == [("t", 5)]
    after, events = act(game, after, Attack(attacker="b", target="u"), [4, 4])
    assert [(e.target, e.defender_score) for e in resolved(events)] == [("u", 5)]  # 4 + cavalry
    assert after.pending is None and codes(game, after, EndPhase()) == []


def test_the_doctrine_player_declares_its_attacks_together() -> None:
    """Row 74: the AI plans the phase's attacks at once (here ``o`` is attacked too, so
    the horse between the two targets may support), fights them in that order, then ends
    the phase."""
    game = make_game([unit(u, P, "horse", x, y, command="right")
                      for u, x, y in (("a", 30, 10), ("s", 34.5, 12), ("b", 40, 10))]
                     + [unit("t", R, "commanded_shot", 30, 15, 180),
                        unit("o", R, "commanded_shot", 39, 15, 180)])
    state = position(game, phase="combat")
    player = LargerBattlesDoctrine()
    action = player.choose(game, state, random.Random(1))
    assert isinstance(action, DeclareAttacks) and game.is_legal(state, action)
    assert {a.target for a in action.attacks} == {"t", "o"}
    dice = SeededDice(1)
    state, _ = game.apply(state, action, dice)
    fought = []
    while not isinstance(step := player.choose(game, state, random.Random(1)), EndPhase):
        assert isinstance(step, Attack)
        fought.append(step)
        state, _ = game.apply(state, step, dice)
    assert [(a.attacker, a.target) for a in fought] == [(a.attacker, a.target) for a in action.attacks]


def test_the_page_offers_supports_beside_the_planned_attacks() -> None:
    """Row 74, the page: a unit's attacks are offered as they stand beside the attacks the
    player has planned; ``s`` may support only once ``o`` is in the plan."""
    from tertia.offers import unit_offers
    from tertia.web.errors import ServiceError
    from tertia.web.games import parse_plan

    game = two_fronts()
    state = position(game, phase="combat")
    shown = set(state.units)

    def offer(plan: tuple[Action, ...]) -> dict[str, Any]:
        found = [o.to_dict() for o in unit_offers(game, state, state.units["a"], shown, plan)]
        return next(o for o in found if o["kind"] == "attack" and o["target"] == "t")

    alone = offer(())
    assert alone["options"]["supports"] == [] and alone["gathered_by"] == "declare_attacks"
    plan = parse_plan(game.ruleset, [{"attacker": "b", "target": "o"}])
    assert offer(plan)["options"]["supports"] == ["s"]
    with pytest.raises(ServiceError, match="planned"):
        parse_plan(game.ruleset, [{"attacker": "b"}])


def test_odds_of_a_declared_attack_with_a_support_allowed_beside_another() -> None:
    """Row 74, exact odds: once ``o`` is declared too, ``a`` attacks with ``s`` in support,
    D6+1 against D6: a hit on ``t`` when a >= d (21/36), on ``a`` when d >= a+2 (10/36).
    Declared alone the same attack may not take the support at all."""
    game = two_fronts()
    state = position(game, phase="combat")
    with_s = Attack(attacker="a", target="t", supports=("s",))
    declared, _ = act(game, state, DeclareAttacks(attacks=(with_s, Attack(attacker="b", target="o"))), [])
    s = odds(game, declared, Attack(attacker="a", target="t")).summary
    assert s["target_hits_exact"]["1"] == Fraction(21, 36)
    assert s["attacker_hits_exact"]["1"] == Fraction(10, 36)
    with pytest.raises(IllegalAction):
        odds(game, state, with_s)


def test_the_narrative_and_the_record_show_the_declarations(tmp_path: Path) -> None:
    """Records and the narrative: a battle's declarations are told ("2 attacks declared:
    ..."), each attack's line keeps its odds, and the saved game replays identically."""
    record = tmp_path / "battle.json"
    result = CliRunner().invoke(app, ["battle", "--scenario", "skirmish", "--seed", "2",
                                      "--save", str(record)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert re.search(r"\b\d+ attacks? declared: ", text) and "to inflict a hit]" in text
    assert any(s["action"]["type"] == "declare_attacks" for s in json.loads(record.read_text())["steps"])
    replayed = CliRunner().invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output


def test_the_doctrine_player_does_not_leave_its_bank_to_rout() -> None:
    """Row 81, the AI: a unit at 3 hits holding a river bank (limit 4) would rout the moment
    it attacked across, so the AI does not declare that attack, tempting as the target is."""
    game = river_game()
    state = with_hits(position(game, phase="combat"), a=3, t=3)
    assert isinstance(LargerBattlesDoctrine().choose(game, state, random.Random(1)), EndPhase)
    state = with_hits(position(game, phase="combat"), a=2, t=3)
    assert isinstance(LargerBattlesDoctrine().choose(game, state, random.Random(1)), DeclareAttacks)
