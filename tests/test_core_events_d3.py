"""Events added for the D3 rule sets: ammunition markers, hits removed, units deployed;
each reduces as described and reads as a line of narrative."""

from __future__ import annotations

from tertia.core.actions import action_from_dict
from tertia.core.events import UnitDeployed, event_from_dict
from tertia.core.reducer import reduce
from tertia.core.state import GameState, Unit, UnitKind
from tertia.io.narrative import Narrator
from tertia.rules.fighting import Shoot
from tertia.rules.hits import AmmunitionShortage, HitsPiece, HitsRemoved, piece


def _state() -> GameState:
    foot = Unit("f", "p", UnitKind.FOOT, "centre", 10, 10, 0, 4, 3, name="Essex's Foot",
                own=HitsPiece(hits=3))
    waiting = Unit("w", "p", UnitKind.HORSE, "right", 0, 0, 0, 4, 3, removed="undeployed")
    return GameState(("p", "r"), 1, "p", "activation", {"f": foot, "w": waiting})


def test_ammunition_markers_accumulate() -> None:
    s = reduce(reduce(_state(), AmmunitionShortage(unit="f")), AmmunitionShortage(unit="f"))
    assert piece(s.units["f"]).ammo_markers == 2
    line = Narrator(_state()).line(AmmunitionShortage(unit="f"))
    assert line == "Essex's Foot runs short of ammunition (1 shortage marker)"


def test_hits_removed_never_below_zero() -> None:
    assert piece(reduce(_state(), HitsRemoved(unit="f", hits=2, cause="rally")).units["f"]).hits == 1
    assert piece(reduce(_state(), HitsRemoved(unit="f", hits=5, cause="rally")).units["f"]).hits == 0
    line = Narrator(_state()).line(HitsRemoved(unit="f", hits=2, cause="rally"))
    assert line == "Essex's Foot recovers 2 hits (rally), 1 hit left"


def test_a_deployed_unit_comes_into_play_where_placed() -> None:
    s = reduce(_state(), UnitDeployed(unit="w", x=20.25, y=6.0, facing=370.0))
    w = s.units["w"]
    assert (w.x, w.y, w.facing, w.in_play) == (20.25, 6.0, 10.0, True)
    assert "deploys at (20.2, 6.0)" in (Narrator(_state()).line(UnitDeployed("w", 20.25, 6.0, 0)) or "")


def test_new_actions_and_events_round_trip() -> None:
    shot = Shoot(unit="f", target="x")
    assert action_from_dict(shot.to_dict()) == shot
    for e in (AmmunitionShortage("f"), HitsRemoved("f", 1, "rally"), UnitDeployed("w", 1.0, 2.0, 90.0)):
        assert event_from_dict(e.to_dict()) == e
