"""Charge yr Pikes! set-up: each unit's troops, figures and footprint from the scenario's
table over its troop type's organisation, and each officer's rank and grade."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.scenario import Scenario
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.charge_yr_pikes.setup import pieces
from tertia.rulesets.charge_yr_pikes.values import unit_data


def scenario(extension: dict[str, Any] | None = None, terrain: list[dict[str, Any]] | None = None
             ) -> Scenario:
    return Scenario.model_validate({
        "terrain": terrain or [],
        "name": "test", "table": {"width": 72.0, "depth": 48.0},
        "sides": [{"id": "king", "name": "King", "edge": "south"},
                  {"id": "parl", "name": "Parliament", "edge": "north"}],
        "commanders": [
            {"id": "k-gen", "side": "king", "command": "k1", "x": 36.0, "y": 4.0, "general": True},
            {"id": "k-brig", "side": "king", "command": "k1", "x": 30.0, "y": 8.0},
        ],
        "units": [
            {"id": "k-foot", "side": "king", "type": "foot", "command": "k1", "x": 30.0, "y": 12.0},
            {"id": "k-horse", "side": "king", "type": "horse", "command": "k2", "x": 50.0, "y": 12.0},
            {"id": "k-drag", "side": "king", "type": "dragoons", "command": "k2", "x": 60.0, "y": 12.0},
            {"id": "k-gun", "side": "king", "type": "artillery", "command": "k1", "x": 40.0, "y": 10.0},
            {"id": "p-foot", "side": "parl", "type": "foot", "command": "p1", "x": 30.0, "y": 36.0,
             "facing": 180.0},
        ],
        "extensions": {} if extension is None else {"charge-yr-pikes": extension},
    })


def _setup(extension: dict[str, Any] | None = None) -> dict[str, Any]:
    s = scenario(extension)
    table = PikesTable.model_validate(s.extensions.get("charge-yr-pikes", {}))
    return pieces(s, table)


def test_a_unit_the_table_does_not_name_plays_as_its_kind_at_full_strength() -> None:
    units = _setup()
    foot = unit_data(units["k-foot"])
    assert (foot.troop, foot.pike, foot.shot, foot.start, foot.morale_class) == ("foot", 16, 16, 32, "foot")
    assert (units["k-foot"].width, units["k-foot"].depth) == (4.0, 1.5)  # two ranks of four companies
    horse = unit_data(units["k-horse"])
    assert (horse.troop, horse.men, horse.per_stand, horse.morale_class) == ("horse", 15, 3, "horse")
    assert unit_data(units["k-gun"]).gun == "field"
    assert unit_data(units["k-drag"]).mounted and unit_data(units["k-drag"]).men == 18


def test_the_table_gives_troops_class_figures_and_formation() -> None:
    units = _setup({"regiments": [
        {"unit": "k-foot", "troop": "foot", "morale_class": "elite_foot", "elite": True, "pike": 12,
         "shot": 20, "formation": "column"},
        {"unit": "k-drag", "troop": "dragoons", "mounted": False},
        {"unit": "k-gun", "troop": "artillery", "gun": "heavy"},
    ]})
    foot = unit_data(units["k-foot"])
    assert (foot.morale_class, foot.elite, foot.pike, foot.shot, foot.start) == \
        ("elite_foot", True, 12, 20, 32)
    assert foot.formation == "column" and (units["k-foot"].width, units["k-foot"].depth) == (2.0, 3.0)
    drag = unit_data(units["k-drag"])
    assert (drag.mounted, drag.men, drag.per_stand) == (False, 16, 4)
    assert unit_data(units["k-gun"]).gun == "heavy"


@pytest.mark.parametrize(("troop", "flags", "line"), [
    ("foot", {}, "foot"),
    ("foot", {"trained_bands": True}, "second_rate_foot"),
    ("foot", {"trained_bands": True, "elite": True}, "foot"),
    ("foot", {"elite": True}, "elite_foot"),
    ("musketeers", {"trained_bands": True}, "second_rate_foot"),
    ("horse", {"trained_bands": True}, "horse"),
    ("horse", {"elite": True}, "horse"),
])
def test_a_units_flags_choose_its_morale_line_when_the_table_names_none(
        troop: str, flags: dict[str, bool], line: str) -> None:
    """Section 11 A: "Elite Foot", "Foot or elite trained bands", "2nd rate Foot or trained
    bands": plain trained bands roll on the 2nd rate line, elite trained bands on the
    Foot line, elite foot on the Elite Foot line. The lines of trained bands are foot
    lines: horse keep theirs."""
    unit = "k-foot" if troop in ("foot", "musketeers") else "k-horse"
    units = _setup({"regiments": [{"unit": unit, "troop": troop, **flags}]})
    own = unit_data(units[unit])
    assert own.morale_class == line
    assert (own.trained_bands, own.elite) == (flags.get("trained_bands", False), flags.get("elite", False))


@pytest.mark.parametrize("line", ["foot", "elite_foot", "clubmen"])
def test_a_morale_class_the_table_names_is_kept_whatever_the_flags(line: str) -> None:
    units = _setup({"regiments": [{"unit": "k-foot", "troop": "foot", "trained_bands": True,
                                   "morale_class": line}]})
    assert unit_data(units["k-foot"]).morale_class == line


def test_officers_take_their_rank_grade_and_unit() -> None:
    units = _setup({"officers": [{"commander": "k-brig", "rank": "wing", "grade": "effective",
                                  "attached_to": "k-foot"}]})
    general, brig = unit_data(units["k-gen"]), unit_data(units["k-brig"])
    assert (general.rank, general.grade) == ("army", None)  # the army's general, grade to roll
    assert (brig.rank, brig.grade, brig.attached_to) == ("wing", "effective", "k-foot")


def test_a_scale_of_its_own_sizes_every_stand() -> None:
    units = _setup({"stands": {"foot": {"width": 0.8, "depth": 0.6}}})
    assert (units["k-foot"].width, units["k-foot"].depth) == (3.2, 1.2)
