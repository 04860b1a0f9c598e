"""Charge yr Pikes!' objectives and vital points panel (section 19 A-C): each side's
points with who holds each, the viewer's side first, and each side's standing against a
victory by them."""

from __future__ import annotations

from tertia.core.game import Game
from tertia.core.presentation import PanelContext
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.points import OBJECTIVE, VITAL, holder, places
from tertia.rulesets.charge_yr_pikes.points_panel import POINTS, standing, vital_asked
from tertia.rulesets.charge_yr_pikes.tables import tables_of
from tertia.rulesets.charge_yr_pikes.victory import WON_BY_POINTS
from tertia.scenarios import resolve_scenario

NAMES = {"royalist": "Royalists", "parliament": "Parliament"}


def _naseby() -> tuple[Game, GameState]:
    game = Game(get_ruleset("charge-yr-pikes"), resolve_scenario("naseby", rules_id="charge-yr-pikes"))
    return game, game.deployed()


def _panel(game: Game, state: GameState, viewer: str, watching: bool = False) -> dict[str, dict]:
    context = PanelContext(viewer=viewer, side_names=NAMES, watching=watching)
    shown = game.ruleset.presentation().panel(POINTS, state, context).to_dict()
    return {section["key"]: section for section in shown["sections"]}


def test_each_sides_points_are_listed_with_their_holders_the_viewers_first() -> None:
    game, state = _naseby()
    for viewer in ("royalist", "parliament"):
        sections = _panel(game, state, viewer)
        assert next(iter(sections)) == f"points-{viewer}"
        assert sections[f"points-{viewer}"]["title"] == "Your objectives and vital points"
    sections = _panel(game, state, "royalist")
    assert sections["points-parliament"]["title"] == "Parliament's objectives and vital points"
    tables = tables_of(state)
    for side in state.sides:
        items = sections[f"points-{side}"]["items"]
        listed = (*places(state, side, "objective"), *places(state, side, "vital"))
        assert [i["text"] for i in items] == [
            f"{'Objective' if p.kind == OBJECTIVE else 'Vital point'}: {p.name}" for p in listed]
        for item, place in zip(items, listed, strict=True):
            held = holder(state, place, tables)
            assert item["note"] == ("held by neither side" if held is None else f"held by {NAMES[held]}")
    # Okey's dragoons stand on Sulby Hedges, Parliament's vital point and a Royalist objective.
    assert {"text": "Objective: Sulby Hedges", "side": "royalist", "note": "held by Parliament"} in \
        sections["points-royalist"]["items"]
    titles = [i.get("title") for i in sections["points-royalist"]["items"]]
    assert "The army's line of retreat (19 B)" in titles and "The army's baggage train (19 B)" in titles
    note = sections["points-royalist"]["note"]
    assert note == ("0 of 3 objectives occupied, 0 of 3 vital points taken by the enemy: a victory asks all "
                    "3 occupied and no more than 1 taken (19 C)")


def test_a_watched_side_is_named_where_a_played_side_is_yours() -> None:
    game, state = _naseby()
    sections = _panel(game, state, "royalist", watching=True)
    assert sections["points-royalist"]["title"] == "Royalists' objectives and vital points"


def test_a_side_on_all_its_objectives_keeping_its_vital_points_is_told_it_has_enough_to_win() -> None:
    game, state = _naseby()
    troops = [u for u in state.iter_troops("royalist") if u.kind.value in ("foot", "horse")]
    for unit, place in zip(troops, places(state, "royalist", OBJECTIVE), strict=False):
        state = state.with_unit(unit.evolve(x=place.x, y=place.y))
    sections = _panel(game, state, "parliament")
    royal = sections["points-royalist"]
    assert all(i["note"] == "held by Royalists" for i in royal["items"] if i["text"].startswith("Objective"))
    assert royal["note"] == ("3 of 3 objectives occupied, 0 of 3 vital points taken by the enemy: enough to "
                             "win, unless the enemy has done as much (19 C)")
    # Parliament's vital points are the Royalists' objectives here: all three are lost.
    assert sections["points-parliament"]["note"].startswith(
        "0 of 3 objectives occupied, 3 of 3 vital points taken by the enemy")


def test_once_the_battle_is_over_the_standing_is_as_the_result_counted_it() -> None:
    """19 C, E: a victory by the points is judged before the pursuit phase, whose moves
    may leave a point behind: once the battle is over each side's line gives the points
    the result counted, as the battle was decided, whatever the position after the
    pursuit; at darkness, with no pursuit, as the battle was decided."""
    game, state = _naseby()
    counted = {"royalist": {"objectives_occupied": 3, "vital_points_held": 2},
               "parliament": {"objectives_occupied": 0, "vital_points_held": 1}}
    for reason, after in ((WON_BY_POINTS + ": ...", ", before the pursuit"),
                          ("darkness falls and the larger share of casualties loses: ...", "")):
        over = state.evolve(result={"winner": "royalist", "reason": reason, "breakdown": counted})
        sections = _panel(game, over, "royalist")
        assert sections["points-royalist"]["note"] == (
            "3 of 3 objectives occupied, 1 of 3 vital points taken by the enemy "
            f"as the battle was decided{after}")
        assert sections["points-parliament"]["note"] == (
            "0 of 3 objectives occupied, 2 of 3 vital points taken by the enemy "
            f"as the battle was decided{after}")
    going_on = _panel(game, state, "royalist")["points-royalist"]["note"]
    assert going_on.startswith(
        "0 of 3 objectives occupied, 0 of 3 vital points taken by the enemy: a victory asks")


def test_a_vital_point_held_by_neither_side_is_not_called_kept_but_counts_as_not_taken() -> None:
    """19 C's "still holds at least two of its own vital points" reads, by default, as not
    lost to the enemy (``vital_held = "unless_taken"``): a vital point held by neither side
    counts for its side. The line says what is true of it, that the enemy has not taken
    it, and not that the side keeps it; with ``vital_held = "occupied"`` it counts only
    those the side holds itself, and says so."""
    game, state = _naseby()
    tables = tables_of(state)
    vital = places(state, "royalist", VITAL)
    assert [holder(state, p, tables) for p in vital].count(None) >= 1  # one at least held by no one
    for viewer in ("royalist", "parliament"):
        note = _panel(game, state, viewer)["points-royalist"]["note"]
        assert "kept" not in note
        assert note.startswith("0 of 3 objectives occupied, 0 of 3 vital points taken by the enemy: "), note
    held = sum(1 for p in vital if holder(state, p, tables) == "royalist")
    only_held = tables.victory.model_copy(update={"vital_held": "occupied"})
    occupied = tables.model_copy(update={"victory": only_held})
    assert standing(state, "royalist", occupied) == (
        f"0 of 3 objectives occupied, {held} of 3 vital points held: a victory asks all 3 occupied and "
        "2 held (19 C)")
    assert (vital_asked(3, tables), vital_asked(2, tables), vital_asked(1, tables)) == (
        "no more than 1 taken", "none taken", "2 vital points, more than it has")
