"""Combat (larger-battles): opposed D6 rolls with every modifier, supports, ammunition,
commanders; worked with scripted dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.rules.fighting import Attack, AttackResolved
from tertia.rules.hits import piece
from tertia.rulesets.larger_battles.actions import DeclareAttacks, Encourage

from .support import P, R, act, codes, commander, make_game, position, unit


def duel(a_kind: str, t_kind: str, **options: object):  # type: ignore[no-untyped-def]
    a_cmd = "right" if a_kind == "horse" else None
    t_cmd = "left" if t_kind == "horse" else None
    game = make_game([unit("a", P, a_kind, 30, 10, command=a_cmd),
                      unit("t", R, t_kind, 30, 15, 180, command=t_cmd)], **options)
    return game, position(game, phase="combat")


def resolved(events):  # type: ignore[no-untyped-def]
    return next(e for e in events if isinstance(e, AttackResolved))


def test_higher_score_hits_and_ties_do_nothing() -> None:
    """Assess Casualties: the higher score causes a hit on the opposition; ties no hit."""
    game, state = duel("dragoons", "dragoons")
    after, _ = act(game, state, Attack(attacker="a", target="t"), [5, 2])
    assert (piece(after.units["t"]).hits, piece(after.units["a"]).hits) == (1, 0)
    after, _ = act(game, state, Attack(attacker="a", target="t"), [2, 5])
    assert (piece(after.units["t"]).hits, piece(after.units["a"]).hits) == (0, 1)
    after, _ = act(game, state, Attack(attacker="a", target="t"), [4, 4])
    assert (piece(after.units["t"]).hits, piece(after.units["a"]).hits) == (0, 0)


def test_muskets_add_one_to_attacking_infantry_with_ammunition() -> None:
    """Modifier 1: infantry with ammunition add 1 when attacking (then check ammunition)."""
    game, state = duel("foot", "foot")
    after, events = act(game, state, Attack(attacker="a", target="t"), [3, 4, 6])
    assert piece(after.units["t"]).hits == 0 and piece(after.units["a"]).hits == 0  # 3+1 = 4 ties 4
    assert "muskets" in resolved(events).modifiers[0]


def test_check_ammunition_on_1_or_2() -> None:
    """Check Ammunition: the primary attacking infantry rolls a D6; 1 or 2, out of ammunition.
    Out of ammunition, infantry lose only the +1 for muskets (author's ruling)."""
    game, state = duel("foot", "foot")
    after, _ = act(game, state, Attack(attacker="a", target="t"), [6, 1, 2])
    assert piece(after.units["a"]).out_of_ammo
    after2, _ = act(game, state, Attack(attacker="a", target="t"), [6, 1, 3])
    assert not piece(after2.units["a"]).out_of_ammo


def test_cavalry_add_one_except_against_pikes() -> None:
    """Modifier 2: cavalry add 1 except when attacking infantry with pikes; commanded shot
    have no pikes."""
    game, state = duel("horse", "foot")
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).attacker_score == 3
    game, state = duel("horse", "commanded_shot")
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).attacker_score == 4
    game, state = duel("horse", "horse")
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert (resolved(events).attacker_score, resolved(events).defender_score) == (4, 4)


def test_defending_cavalry_bonus_is_an_option() -> None:
    game, state = duel("dragoons", "horse", cavalry_bonus="attacking-only")
    _, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).defender_score == 3


def test_attacking_artillery_adds_one() -> None:
    """Modifier 3: add 1 for any unit attacking artillery."""
    game, state = duel("dragoons", "artillery")
    after, events = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert resolved(events).attacker_score == 4
    assert after.units["t"].removed == "routed"  # artillery rout on 1 hit


def test_guns_and_commanders_do_not_attack() -> None:
    game, state = duel("artillery", "foot")
    assert codes(game, state, Attack(attacker="a", target="t")) == ["core.CANNOT_ACT"]


def test_range_and_facing() -> None:
    """Combat range is 3"; units must face the enemy unit being attacked."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("t", R, "foot", 30, 15.5, 180),
                      unit("b", P, "dragoons", 45, 10, 180), unit("u", R, "foot", 45, 15, 180)])
    state = position(game, phase="combat")
    assert codes(game, state, Attack(attacker="a", target="t")) == ["fighting.OUT_OF_RANGE"]
    assert codes(game, state, Attack(attacker="b", target="u")) == ["fighting.NOT_IN_FRONT"]


def test_supports_add_one_each_and_never_take_hits() -> None:
    """Modifier 5: +1 for each supporting unit attacking; only the primary takes hits.
    Flanking units count as supporting units (author's ruling)."""
    game = make_game([
        unit("a", P, "dragoons", 30, 10), unit("s", P, "dragoons", 34.5, 12),
        unit("f", P, "dragoons", 36, 15, 270), unit("t", R, "foot", 30, 15, 180),
    ])
    state = position(game, phase="combat")
    after, events = act(game, state, Attack(attacker="a", target="t", supports=("s", "f")), [1, 6])
    r = resolved(events)
    assert r.attacker_score == 3 and r.defender_score == 6
    assert piece(after.units["a"]).hits == 1
    assert piece(after.units["s"]).hits == 0 and piece(after.units["f"]).hits == 0


def test_no_support_from_a_unit_near_an_enemy_not_attacked() -> None:
    """Modifier 5: a unit cannot support if within 3" of an enemy not attacked this turn."""
    game = make_game([
        unit("a", P, "dragoons", 30, 10), unit("s", P, "dragoons", 34.5, 12),
        unit("t", R, "foot", 30, 15, 180), unit("o", R, "foot", 39, 15, 180),
        unit("b", P, "dragoons", 40, 10),
    ])
    state = position(game, phase="combat")
    assert codes(game, state, Attack(attacker="a", target="t", supports=("s",))) == ["fighting.BAD_SUPPORT"]
    # When the other enemy is attacked in the same declaration, the support is allowed.
    assert not codes(game, state, DeclareAttacks(attacks=(
        Attack(attacker="a", target="t", supports=("s",)), Attack(attacker="b", target="o"))))


def test_commander_rally_adds_one_then_misfortune() -> None:
    """Modifier 4 and Commanders: a commander within 3" adds 1 to an infantry or cavalry
    unit; after combat roll a D6, on a 1 the commander leaves the field."""
    game = make_game(
        [unit("a", P, "horse", 30, 10, command="right"), unit("t", R, "horse", 30, 15, 180, command="left")],
        commanders=[commander("c", P, 30, 7.5, command="right")],
    )
    state = position(game, phase="combat")
    after, events = act(game, state, Attack(attacker="a", target="t", commander="c"), [3, 3, 1])
    assert resolved(events).attacker_score == 5
    assert after.units["c"].removed == "misfortune"
    assert codes(game, state, Attack(attacker="a", target="t", commander="zz")) == ["fighting.BAD_COMMANDER"]


def test_defending_commander_may_encourage() -> None:
    game = make_game(
        [unit("a", P, "horse", 30, 10, command="right"), unit("t", R, "horse", 30, 15, 180, command="left")],
        commanders=[commander("k", R, 30, 17.5, command="left")],
    )
    state = position(game, phase="combat")
    state, _ = act(game, state, Attack(attacker="a", target="t"))
    assert state.pending is not None and state.to_act == R
    after, events = act(game, state, Encourage(commander="k"), [3, 3, 2])
    assert resolved(events).defender_score == 5 and piece(after.units["a"]).hits == 1
    assert after.units["k"].in_play


def test_defender_turns_to_face_the_primary_attacker() -> None:
    """Frontal Facing: defending units must turn to face the primary attacking unit."""
    game = make_game([unit("a", P, "dragoons", 30, 10), unit("t", R, "dragoons", 30, 15, 90)])
    state = position(game, phase="combat")
    after, _ = act(game, state, Attack(attacker="a", target="t"), [3, 3])
    assert after.units["t"].facing == pytest.approx(180.0)


@pytest.mark.parametrize(("supports", "defender"), [(0, "dragoons"), (1, "dragoons"), (2, "dragoons"),
                                                  (0, "horse"), (2, "horse")])
def test_opposed_roll_exact_distribution_matches_the_engine(supports: int, defender: str) -> None:
    """The opposed D6: the hand-computed exact chance of a hit equals the count over all 36
    scripted rolls run through the engine (supports +1 each; defending cavalry +1)."""
    d_mod = 1 if defender == "horse" else 0
    expected = Fraction(sum(1 for a in range(1, 7) for d in range(1, 7) if a + supports > d + d_mod), 36)
    spots = [(34.5, 12.0), (25.5, 12.0)]
    game = make_game([
        unit("a", P, "dragoons", 30, 10),
        *[unit(f"s{i}", P, "dragoons", *spots[i]) for i in range(supports)],
        unit("t", R, defender, 30, 15, 180, command="left" if defender == "horse" else None),
    ])
    state = position(game, phase="combat")
    attack = Attack(attacker="a", target="t", supports=tuple(f"s{i}" for i in range(supports)))
    hits = 0
    for a in range(1, 7):
        for d in range(1, 7):
            after, _ = act(game, state, attack, [a, d])
            hits += piece(after.units["t"]).hits
    assert Fraction(hits, 36) == expected
