"""Charge yr Pikes! army morale ("Effects on the entire army"): figures off the table as
a share of the army, the D10 against the casualty band with +1 a vital point lost, and the
three steps of an army that takes fright."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.core.events import DiceRolled, PhaseBegan
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.io.narrative import Narrator
from tertia.rulesets.charge_yr_pikes.army import (
    ArmyMoraleTested,
    army_morale,
    final_losses,
    fright_losses,
    fright_needs,
    take_fright,
)
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.phases import ADJUSTMENTS, ARMY_MORALE, RALLIES, after_fire
from tertia.rulesets.charge_yr_pikes.rout import ROUTED_OFF
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_pieces import piece, state, tx

TABLES = default_tables()
KING_VITAL = (("king", "vital", "other", "Mill", 10.0, 4.0), ("king", "vital", "retreat", "Road", 36.0, 0.0),
              ("king", "vital", "other", "Church", 60.0, 4.0))


def _army(lost: int, strength: int = 100, *others: object, points: tuple[tuple[object, ...], ...] = ()
          ) -> GameState:
    """The king's army: one body of horse of ``strength`` figures, ``lost`` of them lost
    (morale already rated); Parliament's foot far off."""
    units = [piece("k-horse", "king", "horse", 36.0, 20.0, men=strength - lost, start=strength, morale=3),
             piece("p-foot", "parl", "foot", 36.0, 40.0), *others]
    return state(*units, points=points)  # type: ignore[arg-type]


def _test(s: GameState, dice: list[int]) -> tuple[Tx, bool, list[str]]:
    routs: list[str] = []
    t = tx(s, dice)
    steps = army_morale(t, "king", TABLES, routs.append)
    return t, steps is not None, routs


BANDS = [(0, 11), (19, 11), (20, 10), (29, 10), (30, 9), (39, 9), (40, 8), (49, 8)]


@pytest.mark.parametrize(("lost", "needed"), BANDS)
def test_each_casualty_band_takes_fright_at_its_total_and_holds_one_below(lost: int, needed: int) -> None:
    """"0 - 19% casualties. Morale steady 1-10, Fright 11+; 20-29% ... Fright 10+; 30-39%
    ... Fright 9+; 40-49% ... Fright 8+" on a D10 whose 0 reads 10."""
    assert fright_needs(Fraction(lost), TABLES.army_morale) == needed
    t, fright, _ = _test(_army(lost), [needed - 1])
    assert not fright and game_data(t.state).fright == ()
    if needed <= 10:
        t, fright, _ = _test(_army(lost), [needed])
        assert fright and game_data(t.state).fright == ("king",)


@pytest.mark.parametrize(("lost", "needed"), BANDS)
def test_the_chance_of_fright_in_each_band_is_the_faces_at_or_over_its_total(lost: int, needed: int) -> None:
    """The exact distribution: each of the ten faces rolled once; fright on 11 - needed
    of them (none in the lowest band)."""
    frightened = sum(_test(_army(lost), [face])[1] for face in range(1, 11))
    assert Fraction(frightened, 10) == Fraction(max(0, 11 - needed), 10)


def test_a_share_between_two_bands_falls_in_the_lower() -> None:
    """19.5% is in "0 - 19%"; 20% begins the next band."""
    assert fright_needs(Fraction(39, 2), TABLES.army_morale) == 11
    assert fright_needs(Fraction(20), TABLES.army_morale) == 10


@pytest.mark.parametrize("lost", [50, 73])
def test_at_half_the_army_lost_it_takes_fright_without_a_roll(lost: int) -> None:
    """"50%+ Casualties, army takes fright": no die is rolled."""
    t, fright, _ = _test(_army(lost), [])
    assert fright and fright_needs(Fraction(lost), TABLES.army_morale) is None
    tested = [e for e in t.events if isinstance(e, ArmyMoraleTested)]
    assert [(e.roll, e.needed, e.fright) for e in tested] == [(None, None, True)]
    assert fright_needs(Fraction(4999, 100), TABLES.army_morale) == 8


def test_figures_off_the_table_count_whole_save_pursuers_and_officers_and_wagons_not_at_all() -> None:
    """"Count the number of figures off the table due to casualties, routs from the field,
    and taken prisoner. Do not count units that have pursued enemy forces off the
    battlefield to their rear." Plundering horse count as dead (Plunder E)."""
    units = [
        piece("k-foot", "king", "foot", 10.0, 10.0, shot=12),                          # 4 lost
        piece("k-fled", "king", "foot", 20.0, 10.0, shot=14).evolve(removed="routed"),  # all 32
        piece("k-chase", "king", "horse", 30.0, 10.0, men=12).evolve(removed="pursuing"),  # 3 lost
        piece("k-loot", "king", "horse", 40.0, 10.0).evolve(removed="plundering"),     # all 15
        piece("k-taken", "king", "foot", 50.0, 10.0).evolve(removed="captured"),       # all 32
        piece("k-running", "king", "foot", 60.0, 10.0, shot=12, formation="routed"),   # 4 lost, on the table
        piece("k-wagons", "king", "wagons", 36.0, 2.0).evolve(removed="captured"),     # not counted
        piece("k-gen", "king", "officer", 36.0, 6.0).evolve(removed="fallen"),         # not counted
        piece("p-foot", "parl", "foot", 36.0, 40.0, shot=8),
    ]
    s = state(*units)
    counted = fright_losses(s, "king", TABLES)
    assert (counted.lost, counted.strength) == (4 + 32 + 3 + 15 + 32 + 4, 32 + 32 + 15 + 15 + 32 + 32)
    assert counted.percent == Fraction(100 * 90, 158)
    # "Re-entered units are counted as alive for such purposes" (Plunder E).
    back = s.with_unit(s.units["k-loot"].evolve(removed=None))
    assert fright_losses(back, "king", TABLES).lost == counted.lost - 15
    assert (fright_losses(s, "parl", TABLES).lost, fright_losses(s, "parl", TABLES).strength) == (8, 32)
    # At darkness (19 D) the routed unit still on the table counts whole too ...
    assert final_losses(s, "king", TABLES).lost == 4 + 32 + 3 + 15 + 32 + 32
    # ... and with no exceptions every unit counts its exact casualties, save plundering
    # horse, "counted as dead for ... victory conditions" (Plunder E).
    exact = TABLES.model_copy(update={"victory": TABLES.victory.model_copy(update={"count_whole": ()})})
    assert final_losses(s, "king", exact).lost == 4 + 2 + 3 + 15 + 0 + 4


def test_a_unit_that_fled_off_the_table_counts_whole_at_darkness_as_at_fright() -> None:
    """19 D: routed units count every figure, and a unit that routed off the table in its
    flight (``rout.ROUTED_OFF``, the reason play gives) is routed: at darkness as in the
    fright test, all its figures; without the exception, its exact casualties."""
    units = [
        piece("k-fled", "king", "foot", 20.0, 10.0, shot=14).evolve(removed=ROUTED_OFF),  # 2 shot lost
        piece("k-foot", "king", "foot", 10.0, 10.0, shot=12),                             # 4 lost
        piece("p-foot", "parl", "foot", 36.0, 40.0, shot=8),
    ]
    s = state(*units)
    assert fright_losses(s, "king", TABLES).lost == 32 + 4
    assert final_losses(s, "king", TABLES).lost == 32 + 4
    exact = TABLES.model_copy(update={"victory": TABLES.victory.model_copy(update={"count_whole": ()})})
    assert final_losses(s, "king", exact).lost == 2 + 4


@pytest.mark.parametrize(("held", "steady", "fright"),
                         [((), 10, None), ((0,), 9, 10), ((0, 2), 8, 9), ((0, 1, 2), 7, 8)])
def test_each_vital_point_the_enemy_holds_adds_one(held: tuple[int, ...], steady: int,
                                                   fright: int | None) -> None:
    """"Modifiers to the die roll: +1 if one vital point is lost, +2 if two vital points
    are lost": at under 20% lost (fright 11+), 10 holds with none lost, 10 frightens with
    one lost and 9 with two (and, chosen, 8 with all three)."""
    raiders = [piece(f"p-horse-{i}", "parl", "horse", KING_VITAL[i][4], KING_VITAL[i][5] + 0.5) for i in held]
    s = _army(0, 100, *raiders, points=KING_VITAL)
    t, frightened, _ = _test(s, [steady])
    assert not frightened
    assert [e.vital_lost for e in t.events if isinstance(e, ArmyMoraleTested)] == [len(held)]
    if fright is not None:
        assert _test(s, [fright])[1]
    # The exact chance: one face in ten for each vital point lost.
    assert sum(_test(s, [face])[1] for face in range(1, 11)) == len(held)


def _told(t: Tx) -> list[str]:
    """The army morale lines the log, the report and the page tell (one narrator)."""
    narrator = Narrator.for_rules(ChargeYrPikes(), None, side_names={"king": "Royalists"})
    lines = [narrator.line(e) for e in t.events if isinstance(e, ArmyMoraleTested)]
    return [line for line in lines if line is not None]


@pytest.mark.parametrize(("face", "told"), [
    (9, "Royalists' army, 0 of 100 figures lost (0%), rolls 9 +2 for 2 vital points lost = 11 "
        "(fright on 11+): it takes fright"),
    (8, "Royalists' army, 0 of 100 figures lost (0%), rolls 8 +2 for 2 vital points lost = 10 "
        "(fright on 11+): it holds"),
])
def test_the_log_tells_the_die_and_every_modifier_that_decided(face: int, told: str) -> None:
    """Two vital points lost add 2: a 9 makes 11 and frightens an army that has lost
    nothing, an 8 makes 10 and it holds. The log names the modifier and the total, so the
    cause of the fright is plain."""
    raiders = [piece(f"p-horse-{i}", "parl", "horse", KING_VITAL[i][4], KING_VITAL[i][5] + 0.5)
               for i in (0, 2)]
    t, _, _ = _test(_army(0, 100, *raiders, points=KING_VITAL), [face])
    tested = [e for e in t.events if isinstance(e, ArmyMoraleTested)]
    assert [(e.roll, e.modifiers, e.total) for e in tested] == [(face, (("vital_points_lost", 2),), face + 2)]
    assert _told(t) == [told]


@pytest.mark.parametrize(("face", "told"), [
    (10, "Royalists' army, 30 of 100 figures lost (30%), rolls 10 (fright on 9+): it takes fright"),
    (8, "Royalists' army, 30 of 100 figures lost (30%), rolls 8 (fright on 9+): it holds"),
])
def test_the_log_reads_the_d10_as_the_chart_does_from_1_to_10(face: int, told: str) -> None:
    """"Morale steady 1-10, Fright 11+": the D10's 0 is 10, and the log says so; with no
    vital point lost there is no modifier and no total."""
    t, fright, _ = _test(_army(30), [face])
    assert fright is (face == 10)
    assert _told(t) == [told]


def test_half_the_army_lost_is_told_as_fright_without_a_roll() -> None:
    t, _, _ = _test(_army(50), [])
    assert _told(t) == ["Royalists' army takes fright without a roll: 50 of 100 figures lost (50%)"]


def test_a_vital_point_is_not_lost_while_a_friend_in_good_order_is_nearer_the_enemy() -> None:
    raider = piece("p-horse", "parl", "horse", 10.0, 6.0)
    guard = piece("k-foot", "king", "foot", 10.0, 4.0, morale=3)
    assert not _test(_army(0, 100, raider, guard, points=KING_VITAL), [10])[1]
    assert _test(_army(0, 100, raider, points=KING_VITAL), [10])[1]


def _shaken_army(*others: Unit) -> GameState:
    return state(
        *others,
        piece("k-routed", "king", "foot", 10.0, 10.0, formation="routed", morale=2, pike=10),
        piece("k-shaky", "king", "foot", 20.0, 10.0, morale=1, shot=12),
        piece("k-low", "king", "foot", 30.0, 10.0, morale=0),
        piece("k-hurt", "king", "horse", 40.0, 10.0, morale=3, men=12),
        piece("k-fresh", "king", "horse", 50.0, 10.0, morale=3),
        piece("k-untested", "king", "foot", 60.0, 10.0, shot=14),
        piece("k-gen", "king", "officer", 36.0, 4.0),
        piece("p-shaky", "parl", "foot", 36.0, 40.0, morale=1, shot=10),
    )


def test_an_army_that_takes_fright_removes_its_routed_routs_the_shaky_and_lowers_the_hurt() -> None:
    """"1. All routed units are removed from the field. 2. All units with a morale level
    of 1 rout. 3. All units with casualties lower their morale 1 level." A unit that has
    never tested has its morale rated (D6 4: foot, 2) and then lowered."""
    t = tx(_shaken_army(), [4])
    routs: list[str] = []

    def rout(unit_id: str) -> None:
        routs.append(unit_id)
        change(t, unit_id, "routs", formation="routed")

    steps = take_fright(t, "king", TABLES, rout)
    u = t.state.units
    assert u["k-routed"].removed == "routed" and steps.removed == ("k-routed",)
    assert routs == ["k-shaky", "k-low"] == list(steps.routed)
    morale = {k: unit_data(u[k]).morale for k in ("k-shaky", "k-low", "k-hurt", "k-fresh", "k-untested")}
    assert morale == {"k-shaky": 0, "k-low": 0, "k-hurt": 2, "k-fresh": 3, "k-untested": 1}
    assert unit_data(u["k-untested"]).morale_max == 2
    assert set(steps.lowered) == {"k-shaky", "k-hurt", "k-untested"}
    # Parliament's army and the officer are untouched.
    assert unit_data(u["p-shaky"]).morale == 1 and u["p-shaky"].in_play and u["k-gen"].in_play


def _with_wagons() -> GameState:
    """The shaken army with its baggage train: one wagon already routed (it ran when a
    friend routed near it), one whose morale was rated 1."""
    return _shaken_army(piece("k-wagons", "king", "wagons", 36.0, 2.0, morale=1),
                        piece("k-wagons-2", "king", "wagons", 40.0, 2.0, formation="routed", morale=1))


@pytest.mark.parametrize("counted", [False, True])
def test_the_baggage_train_outside_the_armys_count_takes_none_of_its_steps(counted: bool) -> None:
    """The wagons are not counted among the army's figures (``[army_morale] uncounted``),
    and the army that takes fright is the army counted: a routed wagon is not removed and
    a wagon at 1 does not rout (the movement table gives "Artillery & Wagons" no rout
    move). A club that counts the wagons has them take the steps like any unit."""
    tables = TABLES
    if counted:
        tables = TABLES.model_copy(update={"army_morale": TABLES.army_morale.model_copy(
            update={"uncounted": ("officer",)})})
    t = tx(_with_wagons(), [4])
    routs: list[str] = []

    def rout(unit_id: str) -> None:
        routs.append(unit_id)
        change(t, unit_id, "routs", formation="routed")

    steps = take_fright(t, "king", tables, rout)
    u = t.state.units
    assert (u["k-wagons-2"].removed == "routed") is counted
    assert ("k-wagons-2" in steps.removed) is counted
    assert sorted(routs) == (["k-low", "k-shaky", "k-wagons"] if counted else ["k-low", "k-shaky"])
    assert unit_data(u["k-wagons"]).formation == ("routed" if counted else "line")
    assert u["k-routed"].removed == "routed"
    # The count agrees: with the wagons counted, their figures are the army's too.
    assert fright_losses(_with_wagons(), "king", tables).strength == 158 + (2 if counted else 0)


def test_an_army_whose_morale_holds_takes_no_steps() -> None:
    s = _shaken_army()
    t = tx(s, [1])
    routs: list[str] = []
    assert army_morale(t, "king", TABLES, routs.append) is None
    assert routs == [] and t.state.units == s.units


def test_an_army_that_takes_fright_in_the_test_takes_the_steps() -> None:
    deserted = piece("k-gone", "king", "foot", 5.0, 5.0).evolve(removed="deserted")
    assert fright_losses(_shaken_army(deserted), "king", TABLES).percent == Fraction(100 * 47, 190)
    t = tx(_shaken_army(deserted), [9])  # 24.7% lost: fright on 10
    assert army_morale(t, "king", TABLES, lambda _: None) is None
    t = tx(_shaken_army(deserted), [10, 4])
    routs: list[str] = []
    steps = army_morale(t, "king", TABLES, routs.append)
    assert steps is not None and routs == ["k-shaky", "k-low"]
    assert t.state.units["k-routed"].removed == "routed" and game_data(t.state).fright == ("king",)


# --- in the sequence of play (L) ------------------------------------------------------------


def _turn_ending(turn: int = 3) -> GameState:
    """The king's army has lost 19 of 47 figures (40.4%: fright on 8+): a foot regiment
    that routed this turn (16 lost) and horse with 3 lost; Parliament has lost none."""
    return state(
        piece("k-routed", "king", "foot", 20.0, 10.0, formation="routed", routed_turn=turn, morale=2,
              shot=0, pike=16),
        piece("k-horse", "king", "horse", 50.0, 10.0, morale=3, men=12),
        piece("p-foot", "parl", "foot", 36.0, 40.0, morale=3),
        turn=turn)


@pytest.mark.parametrize(("face", "fright"), [(8, True), (7, False)])
def test_at_the_end_of_the_turn_each_army_tests_and_one_that_takes_fright_takes_the_steps(
        face: int, fright: bool) -> None:
    """Sequence L, "Determine each army's major morale category and take appropriate
    action", after the close combats (H, I), the 50% rules (J) and the rallies (K): each
    army rolls its D10, the king's first. On an 8 the king's army takes fright, so its
    routed foot is removed and its hurt horse lowered; on a 7 it holds and nothing is
    done. Parliament (none lost) holds on a 1."""
    t = tx(_turn_ending(), [face, 1])
    assert not after_fire(t, TABLES, {})
    phases = [e.phase for e in t.events if isinstance(e, PhaseBegan)]
    assert phases[-3:] == [ADJUSTMENTS, RALLIES, ARMY_MORALE]
    rolled = [e.purpose for e in t.events if isinstance(e, DiceRolled)]
    assert rolled == ["army morale: king", "army morale: parl"]
    tested = [(e.side, e.roll, e.needed, e.fright) for e in t.events if isinstance(e, ArmyMoraleTested)]
    assert tested == [("king", face, 8, fright), ("parl", 1, 11, False)]
    u = t.state.units
    assert (u["k-routed"].removed == "routed") is fright
    assert unit_data(u["k-horse"]).morale == (2 if fright else 3)
    assert game_data(t.state).fright == (("king",) if fright else ())
    assert u["p-foot"].in_play and unit_data(u["p-foot"]).morale == 3
