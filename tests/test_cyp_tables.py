"""Charge yr Pikes!' tables: those the text keeps read as the text prints them, those it
lost are data a club can replace, and a replacement that does not fit is refused in one
line naming the table and field."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.data import FORMATIONS, LINE, CypUnit
from tertia.rulesets.charge_yr_pikes.tables import TablesError, default_tables, tables_with
from tertia.rulesets.charge_yr_pikes.troops import DISMOUNTED_DRAGOON_STANDS, FOOT, TROOPS

# Tables and Charts, section 20: "Type of unit Normal Square Road Col. Charge Rout Move".
TEXT_MOVEMENT = {
    "foot": (8, 4, 12, None, (8, 1)),
    "musketeers": (10, None, 14, None, (10, 1)),
    "highlanders": (10, 4, 14, 14, (10, 1)),
    "horse": (16, None, 24, 32, (16, 2)),
    "lobsters": (16, None, 20, 24, (16, 2)),
    "dragoons": (16, None, 24, 28, (16, 2)),
    "scots_horse": (16, None, 24, 28, (16, 2)),
    "artillery": (6, None, 8, None, None),
    "wagons": (6, None, 8, None, None),
    "coach": (10, None, 16, None, (12, 1)),
    "officer": (24, None, None, None, None),
}


def test_the_movement_table_is_the_texts() -> None:
    table = default_tables().movement
    for troop, (normal, square, road, charge, rout) in TEXT_MOVEMENT.items():
        line = table[troop]
        assert (line.normal, line.square, line.road, line.charge) == (normal, square, road, charge), troop
        assert (None if line.rout is None else (line.rout.inches, line.rout.dice)) == rout, troop


def test_the_initial_morale_table_is_the_texts() -> None:
    # Section 11 A, by D6 face 1 to 6.
    assert default_tables().initial_morale == {
        "horse": (2, 3, 3, 3, 3, 4),
        "second_rate_horse": (2, 2, 2, 3, 3, 3),
        "elite_foot": (2, 3, 3, 3, 3, 4),
        "foot": (1, 2, 2, 2, 3, 3),
        "second_rate_foot": (1, 1, 2, 2, 2, 3),
        "clubmen": (1, 1, 1, 2, 2, 2),
    }
    assert default_tables().morale.pass_ == 6  # "equals or exceeds six"


def test_the_artillery_ranges_are_the_texts() -> None:
    artillery = default_tables().artillery
    # "BALL Gallopers = no ball Field guns = 36" Heavy guns = 48"".
    assert artillery.ball_range == {"galloper": 0, "field": 36, "heavy": 48}
    # "CANNISTER Galloper guns* = 12" Field guns = 12" Heavy guns = 15"".
    assert artillery.canister_range == {"galloper": 12, "field": 12, "heavy": 15}
    # "this depth of penetration is 12" ... For heavy guns ... 18"".
    assert artillery.penetration == {"field": 12, "heavy": 18}
    # "Deep formations: 1,2 = miss 3,4,5 = 1 hit, 6 = 2hits; Shallow 1,2,3 = miss, 4,5,6 = 1 hit".
    assert artillery.ball_hits["deep"] == {3: 1, 4: 1, 5: 1, 6: 2}
    assert artillery.ball_hits["shallow"] == {4: 1, 5: 1, 6: 1}
    assert artillery.ball_hits["cavalry"] == {4: 1, 5: 1, 6: 1}


def test_the_unit_organisations_are_the_texts() -> None:
    # Unit Organizations B: "32 figures strong, in eight 4-man companies, 4 of shot, and 4 of pike".
    foot = CypUnit.of(FOOT)
    assert (foot.pike, foot.shot, foot.pike_stands, foot.shot_stands) == (16, 16, 4, 4)
    # C: "Horse regiments consist of five 3-man stands": lobsters and Scots horse are horse too.
    for horse in ("horse", "lobsters", "scots_horse"):
        assert (TROOPS[horse].stands, TROOPS[horse].figures_per_stand) == (5, 3)
    # Commanded musketeers: a 4-man stand of shot from each of at least four units (row 103).
    assert (TROOPS["musketeers"].stands, TROOPS["musketeers"].figures_per_stand) == (4, 4)
    # A: "Dragoon regiments mounted consist of six 3-man stands. Dismounted, ... four 4-man stands".
    assert (TROOPS["dragoons"].stands, TROOPS["dragoons"].figures_per_stand) == (6, 3)
    assert DISMOUNTED_DRAGOON_STANDS == 4


def test_the_formations_are_the_texts_five() -> None:
    assert FORMATIONS == ("line", "column", "square", "deployed", "routed")


def test_disorder_and_falling_back_are_states_beside_the_formation() -> None:
    shaken = CypUnit.of(FOOT).evolve(disordered=True, falling_back=True)
    assert shaken.formation == LINE and shaken.disordered and shaken.falling_back


@pytest.mark.parametrize(("shot", "firing", "stands"),
                         [(16, 4, 8), (15, 3, 8), (12, 3, 7), (1, 0, 5), (0, 0, 4)])
def test_casualties_make_one_casualty_stand_and_it_does_not_fire(
        shot: int, firing: int, stands: int) -> None:
    # "consolodate casualties within the unit onto one stand ... Any SHOT stand with
    # casualties on it may not fire."
    unit = CypUnit.of(FOOT).evolve(shot=shot)
    assert unit.shot_firing_stands == firing
    assert unit.stands_left == stands


def test_a_club_replaces_a_lost_table_whole() -> None:
    stricter = {"rank": {"army": [10, 9], "wing": [10, 9, 8], "brigadier": [10, 9, 8], "staff": [10, 9, 8]},
                "grade": {"ineffective": [10, 9, 8], "effective": [10, 9], "natural_born_leader": [10]},
                "no_officer": [10, 9, 8, 7, 6]}
    tables = tables_with({"command_response": stricter})
    assert tables.command_response.rank["army"] == (10, 9)
    assert tables.command_response.no_officer == (10, 9, 8, 7, 6)
    assert tables.movement == default_tables().movement  # the others untouched


@pytest.mark.parametrize(("replacement", "message"), [
    ({"morale": {"pass": "six"}}, r"^tables\.morale\.pass: expected a whole number, got 'six'$"),
    ({"moral": {}}, r"^tables\.moral: no such table \(tables: movement, "),
    ({"command_response": {"rank": {"army": [11]}, "grade": {}, "no_officer": []}},
     r"^tables\.command_response\.rank\.army\[0\]: must be at most 10, got 11$"),
    ({"initial_morale": {"horse": [2, 3, 3, 3, 3, 4]}}, r"^tables\.initial_morale: lacks second_rate_horse"),
    ({"officer_grades": {"army": ["effective"]}}, r"^tables\.officer_grades: army has 1 entries"),
])
def test_a_replacement_that_does_not_fit_is_refused_in_one_line(
        replacement: dict[str, object], message: str) -> None:
    with pytest.raises(TablesError, match=message) as caught:
        tables_with(replacement)
    assert "\n" not in str(caught.value)
