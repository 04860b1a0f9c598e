"""The game API: values that round-trip, refusals that leave nothing half-changed,
observations per side, and bad action data turned into clear errors."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tertia.core.actions import BadActionData, Move, action_from_dict
from tertia.core.dice import ScriptedDice, SeededDice
from tertia.core.game import Game
from tertia.core.narration import possessive
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.violations import IllegalAction
from tertia.rules.fighting import Attack
from tertia.rules.hits import HitsPiece, piece
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import DeclareAttacks, GiveOrder
from tertia.scenarios import load_builtin

from .support import P, R, make_game, position, unit


def skirmish() -> Game:
    return Game(get_ruleset("larger-battles"), load_builtin("skirmish"))


def test_state_round_trips_through_json() -> None:
    game = skirmish()
    state, _ = game.start(SeededDice(1))
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state and again.state_hash() == state.state_hash()


def test_evolve_changes_a_copy_and_refuses_unknown_fields() -> None:
    game = skirmish()
    state, _ = game.start(SeededDice(1))
    unit_id = next(iter(state.units))
    unit = state.units[unit_id]
    hit = unit.evolve(hits=piece(unit).hits + 1)
    assert piece(hit).hits == piece(unit).hits + 1 and hit.base is unit.base  # same place, same base
    moved = unit.evolve(x=unit.x + 1)
    assert moved.base.x == unit.x + 1 and moved != unit and unit.base.x == unit.x
    changed = state.with_unit(hit).evolve(phase="combat")
    assert changed.units[unit_id] == hit and changed.phase == "combat"
    assert state.units[unit_id] is unit and state.phase != "combat"
    assert changed != state and state.evolve() == state
    with pytest.raises(TypeError, match="hitz"):
        unit.evolve(hitz=1)
    with pytest.raises(TypeError, match="phaze"):
        state.evolve(phaze="combat")


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = make_game([unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 40, 180)])
    state = position(game)
    before = state.state_hash()
    with pytest.raises(IllegalAction) as info:
        game.apply(state, Move(unit="a", waypoints=((30, 12),)), ScriptedDice([]))
    v = info.value.violations[0]
    assert v.code == "larger-battles.NOT_ORDERED" and "Larger Battles" in v.rule and "a" in v.message
    assert state.state_hash() == before


def test_a_refusal_names_sides_in_words_never_by_their_ids() -> None:
    """The other side's piece, and an order beyond the turn's two, are refused naming
    whose it is and whose turn as a reader would ("Parliament's"), not by the sides' ids."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 40, 180)])
    state = position(game)
    turn = f"it is {possessive(game.side_names[P])} turn"
    [theirs] = game.validate(state, GiveOrder(target="e", purpose="move"))
    assert theirs.message.endswith(f"is {possessive(game.side_names[R])}: {turn}"), theirs.message
    [moved] = game.validate(state, Move(unit="e", waypoints=((30, 38),)))
    assert moved.message.endswith(f"is {possessive(game.side_names[R])}: {turn}"), moved.message
    assert P not in moved.message.split() and R not in moved.message.split()


def test_rejections_carry_the_numbers() -> None:
    game = make_game([unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 40, 180)])
    state = position(game, orders=(("a", "move"),))
    (v,) = game.validate(state, Move(unit="a", waypoints=((30, 17),)))
    assert "7.00" in v.message and "6" in v.message


def test_each_side_observes_the_position() -> None:
    game = skirmish()
    state, _ = game.start(SeededDice(1))
    for side in state.sides:
        seen = game.observe(state, side)
        assert {u["id"] for u in seen["units"]} == set(state.units)


def test_a_view_of_no_side_of_the_battle_is_refused_naming_its_sides() -> None:
    game = skirmish()
    state, _ = game.start(SeededDice(1))
    asks = (lambda: game.observe(state, "nobody"), lambda: game.observed_state(state, "nobody"),
            lambda: game.playable_state(state, "nobody", 1))
    refusal = re.escape("no side 'nobody' in this battle (its sides: parliament, royalist)")
    for ask in asks:
        with pytest.raises(ValueError, match=refusal):
            ask()


def test_unknown_units_are_refused_not_crashed() -> None:
    game = skirmish()
    state, _ = game.start(SeededDice(1))
    assert [v.code for v in game.validate(state, Move(unit="ghost"))] == ["core.UNKNOWN_UNIT"]
    assert game.validate(state, GiveOrder(target="ghost"))[0].code == "core.UNKNOWN_COMMAND"


@pytest.mark.parametrize("data", [
    {"type": "teleport"},
    {"type": "move", "unit": 3},
    {"type": "move", "unit": "a", "waypoints": [[1]]},
    {"type": "move", "unit": "a", "waypoints": "north"},
    [],
])
def test_bad_action_data_is_a_clear_error(data: object) -> None:
    with pytest.raises(BadActionData):
        action_from_dict(data)  # type: ignore[arg-type]


def test_actions_round_trip() -> None:
    move = Move(unit="a", waypoints=((1.0, 2.0), (3.0, 4.5)), face_before=90.0)
    assert action_from_dict(json.loads(json.dumps(move.to_dict()))) == move


def test_a_declaration_round_trips_through_json() -> None:
    """Game records and the HTTP API: the action serialises with its attacks."""
    declared = DeclareAttacks(attacks=(Attack(attacker="a", target="t", supports=("s",), commander="c"),
                                       Attack(attacker="b", target="o")))
    data = declared.to_dict()
    assert data["type"] == "declare_attacks" and data["attacks"][0]["supports"] == ["s"]
    assert action_from_dict(data) == declared
    with pytest.raises(ValueError, match="attacks\\[0\\]"):
        action_from_dict({"type": "declare_attacks", "attacks": [{"type": "move", "unit": "a"}]})


def test_a_second_class_under_a_taken_type_name_is_refused() -> None:
    """The registry never lets a new class take over a type name already in use: records
    saved with the first would load as the second."""
    from dataclasses import dataclass
    from typing import ClassVar

    from tertia.core.actions import Action

    with pytest.raises(TypeError, match="'end_phase'"):
        @dataclass(frozen=True, slots=True)
        class EndTurn(Action):
            type: ClassVar[str] = "end_phase"

    assert action_from_dict({"type": "end_phase"}).__class__.__name__ == "EndPhase"


def test_a_unit_and_a_state_declare_their_fields_once() -> None:
    from tertia.core.decision import Decision
    from tertia.core.state import STATE_FIELDS, UNIT_FIELDS, Stand

    state = Game(get_ruleset("larger-battles"), load_builtin("skirmish")).start(SeededDice(1))[0]
    for member in state.units.values():
        assert Unit(**dict(zip(UNIT_FIELDS, member.fields(), strict=True))) == member
        assert list(member.to_dict()) == list(UNIT_FIELDS)
        assert Unit.from_dict(member.to_dict()) == member
    assert GameState(**dict(zip(STATE_FIELDS, state.fields(), strict=True))) == state
    assert list(state.to_dict()) == list(STATE_FIELDS)
    # fields() and evolve() are written out for speed: each must follow the one list.
    member = next(iter(state.units.values()))
    unit_markers: dict[str, Any] = {
        "id": "m-id", "side": "m-side", "kind": UnitKind.ARTILLERY, "command": "m-command",
        "x": 101.5, "y": 102.5, "facing": 103.5, "width": 4.5, "depth": 5.5, "name": "m-name",
        "traits": ("m-trait",), "removed": "m-removed", "own": HitsPiece(hits=7),
        "extra": {"m": 1}, "stands": (Stand(1.0, 2.0, 3.0, 4.0, 5.0),),
    }
    assert list(unit_markers) == list(UNIT_FIELDS)
    for i, (name, marker) in enumerate(unit_markers.items()):
        changed = member.evolve(**{name: marker})
        assert changed.fields()[i] == marker == getattr(changed, name) != getattr(member, name)
    state_markers: dict[str, Any] = {
        "sides": ("m-a", "m-b"), "turn": 99, "active": "m-active", "phase": "m-phase", "units": {},
        "objectives": (), "first_side": "m-first", "marks": {"m": ("a",)},
        "decisions": (Decision("m-a", "m-kind"),), "result": {"m": 1}, "step": 77,
        "own": HitsPiece(hits=1), "extra": {"m": 2},
    }
    assert list(state_markers) == list(STATE_FIELDS)
    for i, (name, marker) in enumerate(state_markers.items()):
        assert state.evolve(**{name: marker}).fields()[i] == marker


def test_a_unit_value_changes_where_its_rule_set_keeps_it() -> None:
    unit = Unit("f", "p", UnitKind.FOOT, "centre", 10, 10, 0, 4, 2, own=HitsPiece())
    hit = unit.evolve(hits=2, x=11)
    assert piece(hit).hits == 2 and hit.x == 11 and piece(unit).hits == 0
    with pytest.raises(TypeError, match="morale"):
        unit.evolve(morale=3)
    with pytest.raises(TypeError, match="hits"):
        unit.evolve(own=None).evolve(hits=1)


def test_the_state_hash_does_not_depend_on_where_a_value_lives() -> None:
    kept_own = Unit("f", "p", UnitKind.FOOT, "centre", 10, 10, 0, 4, 2, own=HitsPiece(hits=2))
    kept_extra = Unit("f", "p", UnitKind.FOOT, "centre", 10, 10, 0, 4, 2, extra={"hits": 2})
    untouched = Unit("f", "p", UnitKind.FOOT, "centre", 10, 10, 0, 4, 2, own=HitsPiece())

    def state(u: Unit) -> GameState:
        return GameState(("p", "r"), 1, "p", "movement", {"f": u})

    assert state(kept_own).state_hash() == state(kept_extra).state_hash()
    assert state(untouched).state_hash() == state(untouched.evolve(own=None)).state_hash()
    assert state(kept_own).state_hash() != state(untouched).state_hash()


def test_several_decisions_wait_in_the_order_they_arose() -> None:
    from tertia.core.events import DecisionAwaited, DecisionMade
    from tertia.core.reducer import reduce

    state = GameState(("p", "r"), 1, "p", "movement", {})
    state = reduce(state, DecisionAwaited(side="r", kind="countercharge", context={"unit": "h"}))
    state = reduce(state, DecisionAwaited(side="p", kind="fire", context={"unit": "f"}))
    assert state.to_act == "r" and state.pending is not None and state.pending["unit"] == "h"
    assert [d.kind for d in state.decisions] == ["countercharge", "fire"]
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    answered = reduce(state, DecisionMade(side="p", kind="fire", choice="volley"))
    assert [d.kind for d in answered.decisions] == ["countercharge"]
    done = reduce(reduce(answered, DecisionMade(side="r", kind="countercharge", choice=None)),
                  DecisionMade(side="r", kind="countercharge", choice=None))
    assert done.pending is None and done.to_act == "p"


def test_violation_codes_are_namespaced_and_declared_once() -> None:
    from tertia.core.violations import CODES, Codes
    from tertia.rulesets import get_ruleset, ruleset_ids

    for rules in ruleset_ids():  # a rule set declares its codes when it is first used
        get_ruleset(rules)
    assert CODES and all("." in code and meaning for code, meaning in CODES.items())
    assert {c.split(".")[0] for c in CODES} >= {"core", "movement", "fighting", "activation",
                                                  "larger-battles", "d3"}
    with pytest.raises(TypeError, match=r"movement\.TOO_FAR"):
        class Again(Codes, namespace="movement"):
            TOO_FAR = "declared a second time"


@pytest.mark.parametrize("rules", ["larger-battles", "declare-thee-sir", "charge-yr-pikes"])
def test_the_hash_put_together_from_each_units_text_is_the_hash_of_the_whole_projection(rules: str) -> None:
    """``state_hash`` joins each unit's text (worked out once a unit) to the rest: the same
    digest as of the whole canonical projection written out at once, along a battle (the
    random players' conformance playout at Edgehill, fought once a run: tests/battles.py)."""
    import hashlib

    from tests.battles import fought

    record = fought("edgehill", rules, "random", 11)
    states = [record.initial_state, *(step.state for step in record.steps)][::25]
    for state in states:
        text = json.dumps(state.canonical(), sort_keys=True, separators=(",", ":"), default=str)
        assert state.state_hash() == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert len({state.state_hash() for state in states}) > len(states) // 2


def test_the_api_guide_runs_as_written() -> None:
    """docs/api.md: its opening example runs verbatim, and each call its table gives as
    code on that example's names does too (the what-if position names a piece the example's
    scenario has)."""
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", guide, flags=re.S)
    assert example is not None
    names: dict[str, Any] = {}
    exec(example.group(1), names)
    what_if = re.findall(r"`(state\.(?:evolve|with_unit)\(.*?\))`", guide)
    assert len(what_if) == 2, what_if
    for call in what_if:
        changed = eval(call, names)
        assert isinstance(changed, GameState) and changed != names["state"]
