"""The engine's memos hold at most what they are sized for, however many things are asked
of them: a server asks them for ever (``benchmarks/serve_soak.py``), so a memo without a
bound grows its memory for as long as it runs. A memo with no bound at all is one whose
questions are few by nature (a scenario's file, a table of the rules)."""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys

import tertia
from tertia.core.geometry import CONTACTS_KEPT, DISTANCES_KEPT, Base, base_distance, base_first_contact
from tertia.rules.formations import LAYOUTS_KEPT, LINE, stand_bases
from tertia.rulesets.charge_yr_pikes import secret_grades
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.stands import LAID_OUT_KEPT, _laid_out

UNBOUNDED = {
    "tertia.ai.lookup.resolve": "the AI references rule sets name",
    "tertia.scenarios._load_builtin": "the built-in scenario files",
    "tertia.scenarios.rules_listed": "the built-in scenario files",
    "tertia.rulesets.charge_yr_pikes.tables.default_tables": "one set of tables",
    "tertia.rulesets.charge_yr_pikes.ai.outlook.casualty_chances": "a unit's dice and a rounding",
    "tertia.rulesets.charge_yr_pikes.ai.outlook.melee_chances": "pairs of those dice",
    "tertia.rulesets.declare_thee_sir.ai.judgement._sums": "sums of a few dice",
    "tertia.rulesets.declare_thee_sir.ai.judgement._untested": "points tables and bonuses",
    "tertia.rulesets.declare_thee_sir.ai.judgement._worth": "pairs of those sums",
    "tertia.rulesets.declare_thee_sir.ai.judgement._volley": "a target's morale points and fire modifiers",
    "tertia.rulesets.declare_thee_sir.ai.doctrine._likely_move": "move dice and formation modifiers",
    "tertia.rulesets.declare_thee_sir.chart._runs": "the Melee Chart's three columns",
}
"""The engine's memos without a bound, each with why its questions are few."""


def test_the_distances_remembered_are_at_most_their_bound() -> None:
    for n in range(DISTANCES_KEPT + 10):
        base_distance(Base(float(n), 0.0, 0.0, 4.0, 2.0), Base(float(n), 10.0, 180.0, 4.0, 2.0))
    assert base_distance.cache_info().currsize == DISTANCES_KEPT


def test_the_slides_remembered_are_at_most_their_bound() -> None:
    for n in range(CONTACTS_KEPT + 10):
        base_first_contact(Base(float(n), 0.0, 0.0, 4.0, 2.0), Base(float(n), 10.0, 180.0, 4.0, 2.0),
                           (0.0, 1.0), 0.0)
    assert base_first_contact.cache_info().currsize == CONTACTS_KEPT


def test_the_layouts_remembered_are_at_most_their_bound() -> None:
    for n in range(LAYOUTS_KEPT + 10):
        stand_bases(float(n), 0.0, 0.0, LINE, 3, 2.0, 1.0)
    assert stand_bases.cache_info().currsize == LAYOUTS_KEPT


def test_the_stands_remembered_are_at_most_their_bound() -> None:
    for n in range(LAID_OUT_KEPT + 10):
        _laid_out(Base(float(n), 0.0, 0.0, 1.0, 1.0), "line", 0, 0, 0, 1, "none", True)
    assert _laid_out.cache_info().currsize == LAID_OUT_KEPT


def test_the_officers_graded_are_at_most_their_bound() -> None:
    officers = [CypUnit(rank="colonel") for _ in range(secret_grades.GRADED_KEPT + 10)]
    for own in officers:
        graded = secret_grades._graded(own, "good")
        assert graded.grade == "good" and secret_grades._graded(own, "good") is graded
        assert len(secret_grades._GRADED) <= secret_grades.GRADED_KEPT


def test_every_memo_of_the_engine_has_a_bound_or_few_questions() -> None:
    for found in pkgutil.walk_packages(tertia.__path__, "tertia."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)
    unbounded = set()
    for module_name, module in list(sys.modules.items()):
        if module_name == "tertia" or module_name.startswith("tertia."):
            for name, value in vars(module).items():
                if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == module_name \
                        and value.cache_parameters()["maxsize"] is None:
                    unbounded.add(f"{module_name}.{name}")
    assert unbounded == set(UNBOUNDED)
