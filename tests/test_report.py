"""Narrative, SVG maps and the HTML battle report, on a small hand-built table and game."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import ClassVar

import pytest

from tertia.activation import deck as deck_ev
from tertia.activation.unit_type_deck import TypeCardDrawn
from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.core import events as ev
from tertia.core.actions import EndPhase, Move
from tertia.core.game import Game
from tertia.core.reducer import reduce
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.io.narrative import Narrator, iter_turn_blocks, narrate
from tertia.io.report import _narrative, build_report_for, build_report_html, collect_turns, write_report
from tertia.io.svg import abbreviate, render_map
from tertia.rules import casualties as casualty_ev
from tertia.rules import fighting as fight_ev
from tertia.rules import hits as hits_ev
from tertia.rules import morale as morale_ev
from tertia.rules.hits import HitsPiece
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes import army as cyp_army
from tertia.rulesets.charge_yr_pikes import artillery as cyp_artillery
from tertia.rulesets.charge_yr_pikes import bonus as cyp_bonus
from tertia.rulesets.charge_yr_pikes import casualties as cyp_casualties
from tertia.rulesets.charge_yr_pikes import charge as cyp_charge
from tertia.rulesets.charge_yr_pikes import concealment as cyp_concealment
from tertia.rulesets.charge_yr_pikes import events as cyp_ev
from tertia.rulesets.charge_yr_pikes import morale as cyp_morale
from tertia.rulesets.charge_yr_pikes import narration as cyp_narration  # noqa: F401  (the sentences)
from tertia.rulesets.charge_yr_pikes import reaction as cyp_reaction
from tertia.rulesets.charge_yr_pikes import secret_grades as cyp_grades
from tertia.rulesets.declare_thee_sir import capture as dts_capture
from tertia.rulesets.declare_thee_sir import evasion as dts_evasion
from tertia.rulesets.declare_thee_sir import event_cards as dts_events
from tertia.rulesets.declare_thee_sir import events as dts_ev
from tertia.rulesets.declare_thee_sir import forlorn as dts_forlorn
from tertia.rulesets.declare_thee_sir import points as dts_points
from tertia.rulesets.declare_thee_sir import rejoin as dts_rejoin
from tertia.rulesets.declare_thee_sir import rout as dts_rout
from tertia.rulesets.larger_battles import LargerBattles
from tertia.rulesets.larger_battles import events as lb_ev
from tertia.rulesets.larger_battles.events import LargerBattlesData, Supply
from tertia.scenarios import load_builtin

HOSTILE = '<script>alert("x")</script> & Son'
NAMES = {"roy": "Royalists", "parl": "Parliament"}


def make_table() -> Battlefield:
    k = TerrainKind
    return Battlefield(48, 36, (
        TerrainFeature(k.WOODS, outline=((2, 26), (10, 26), (10, 34), (2, 34)), name="Oak Wood"),
        TerrainFeature(k.TOWN, outline=((36, 2), (46, 2), (46, 9), (36, 9)), name="Kineton"),
        TerrainFeature(k.FIELD, outline=((2, 2), (10, 2), (10, 8), (2, 8)), hedged=True),
        TerrainFeature(k.BROKEN, outline=((12, 2), (16, 2), (16, 6), (12, 6))),
        TerrainFeature(k.MARSH, outline=((40, 28), (46, 28), (46, 34), (40, 34))),
        TerrainFeature(k.LAKE, outline=((30, 28), (34, 28), (34, 32), (30, 32))),
        TerrainFeature(k.HILL, outline=((14, 26), (26, 26), (26, 34), (14, 34)), height=2,
                       name=HOSTILE),
        TerrainFeature(k.RIVER, line=((0, 18), (48, 18)), width=1.5, name="Dene"),
        TerrainFeature(k.FORD, outline=((22, 17), (26, 17), (26, 19), (22, 19))),
        TerrainFeature(k.BRIDGE, line=((40, 16.5), (40, 19.5)), width=2),
        TerrainFeature(k.ROAD, line=((40, 0), (40, 36)), width=1),
        TerrainFeature(k.HEDGE, line=((12, 12), (20, 12)), width=0.4),
        TerrainFeature(k.ENTRENCHMENT, line=((28, 22), (34, 22)), width=0.8),
        TerrainFeature(k.WALL, line=((44, 12), (47, 12)), width=0.4),
        TerrainFeature(k.FENCE, line=((44, 22), (47, 22)), width=0.3),
        TerrainFeature(k.STREAM, line=((2, 23), (8, 23)), width=0.6),
        TerrainFeature(k.PLOUGHED, outline=((24, 2), (28, 2), (28, 5), (24, 5))),
        TerrainFeature(k.ROUGH, outline=((42, 24), (46, 24), (46, 27), (42, 27))),
    ))


def make_state() -> GameState:
    units = [
        Unit("rf", "roy", UnitKind.FOOT, "centre", 20, 30, 180, 4, 2, name="King's Foot"),
        Unit("rh", "roy", UnitKind.HORSE, "right", 30, 24, 180, 4, 2, name=HOSTILE, own=HitsPiece(hits=1)),
        Unit("rc", "roy", UnitKind.COMMANDER, "centre", 20, 33, 180, 2, 2, name="Lord Forth",
             own=HitsPiece(general=True)),
        Unit("pf", "parl", UnitKind.FOOT, "centre", 20, 10, 0, 4, 2, name="Essex's Foot"),
        Unit("pa", "parl", UnitKind.ARTILLERY, "artillery", 28, 8, 0, 3, 2, name="Guns"),
        Unit("pd", "parl", UnitKind.DRAGOONS, "dragoons", 8, 14, 0, 4, 2, name="Gone Dragoons",
             removed="routed"),
        Unit("pc", "parl", UnitKind.COMMANDER, "centre", 20, 6, 0, 2, 2, name="Earl of Essex"),
    ]
    return GameState(
        ("roy", "parl"), 1, "roy", "setup", {u.id: u if u.own else u.evolve(own=HitsPiece()) for u in units},
        own=LargerBattlesData(supplies=(Supply("s1", "roy", 6, 35.5), Supply("s2", "parl", 30, 0.5))),
        objectives=(Objective("The Ford", 24, 18, 4),),
    )


def svg_tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


SVG_NS = "{http://www.w3.org/2000/svg}"


def unit_groups(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.attrib["data-unit"]: g
        for g in root.iter(f"{SVG_NS}g")
        if g.attrib.get("class", "").startswith("unit ") or g.attrib.get("class") == "unit"
    }


def polygon_points(el: ET.Element) -> list[tuple[float, float]]:
    poly = el.find(f"{SVG_NS}polygon")
    assert poly is not None
    return [tuple(map(float, p.split(","))) for p in poly.attrib["points"].split()]  # type: ignore[misc]


# --- SVG ---------------------------------------------------------------------------------


def test_map_is_well_formed_xml_sized_from_the_table() -> None:
    svg = render_map(make_table(), make_state(), side_names=NAMES, scale=10)
    root = svg_tree(svg)
    assert root.tag == f"{SVG_NS}svg"
    _, _, w, h = map(float, root.attrib["viewBox"].split())
    assert w >= 48 * 10 and h >= 36 * 10


def test_a_rule_sets_points_are_drawn_above_the_pieces_flag_or_diamond_ringed_by_their_holder() -> None:
    """The objectives and vital points a rule set's summary gives: an objective's flag and
    a vital point's diamond in their side's colour, the ring solid in the holder's colour
    or dashed when none holds it, after the pieces, a place both sides mark named once,
    and both kinds in the key."""
    points = [
        {"side": "parl", "kind": "objective", "name": "The Ridge", "x": 10.0, "y": 30.0, "held_by": "roy"},
        {"side": "roy", "kind": "vital", "name": "The Ridge", "x": 10.0, "y": 30.0, "held_by": "roy"},
        {"side": "roy", "kind": "objective", "name": "The Ford", "x": 40.0, "y": 5.0, "held_by": None},
    ]
    svg = render_map(make_table(), make_state(), side_names=NAMES, points=points)
    root = svg_tree(svg)
    drawn = root.find(f".//{SVG_NS}g[@class='points']")
    assert drawn is not None
    groups = drawn.findall(f"{SVG_NS}g")
    assert [g.attrib["class"] for g in groups] == ["point objective", "point vital", "point objective"]
    titles = [g.find(f"{SVG_NS}title").text for g in groups]  # type: ignore[union-attr]
    assert titles[0] == f"Objective of {NAMES['parl']}: The Ridge, held by {NAMES['roy']}"
    assert titles[2] == f"Objective of {NAMES['roy']}: The Ford, held by neither side"
    rings = [g.find(f"{SVG_NS}circle") for g in groups]
    assert rings[0] is not None and rings[2] is not None
    assert "stroke-dasharray" not in rings[0].attrib and "stroke-dasharray" in rings[2].attrib
    assert [t.text for t in drawn.iter(f"{SVG_NS}text")] == ["The Ridge", "The Ford"]
    assert svg.index('class="points"') > svg.index('class="units"')
    assert ">Objective (its side" in svg and ">Vital point (its side" in svg  # the key
    plain = render_map(make_table(), make_state(), side_names=NAMES)
    assert '<g class="points"></g>' in plain and ">Vital point (its side" not in plain


def test_one_oriented_base_per_unit_in_play() -> None:
    state = make_state()
    root = svg_tree(render_map(make_table(), state, side_names=NAMES))
    groups = unit_groups(root)
    assert set(groups) == {u.id for u in state.iter_units()}
    for g in groups.values():
        assert len(g.findall(f"{SVG_NS}polygon")) >= 1
        assert len(polygon_points(g)) == 4


def test_removed_units_are_drawn_faded_only_when_asked() -> None:
    table, state = make_table(), make_state()
    shown = unit_groups(svg_tree(render_map(table, state, side_names=NAMES, show_removed=True)))
    assert "pd" in shown and shown["pd"].attrib.get("opacity") == "0.3"
    only = unit_groups(svg_tree(render_map(table, state, side_names=NAMES, show_removed={"pd"})))
    assert "pd" in only


def test_north_is_up_and_east_is_right() -> None:
    groups = unit_groups(svg_tree(render_map(make_table(), make_state(), side_names=NAMES)))

    def centre(uid: str) -> tuple[float, float]:
        pts = polygon_points(groups[uid])
        return sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4

    # rf (y=30) is north of pf (y=10): drawn higher, i.e. with a smaller SVG y.
    assert centre("rf")[1] < centre("pf")[1]
    # rh (x=30) is east of rf (x=20): drawn further right.
    assert centre("rh")[0] > centre("rf")[0]


def test_front_edge_mark_shows_facing() -> None:
    groups = unit_groups(svg_tree(render_map(make_table(), make_state(), side_names=NAMES)))
    for uid, north_facing in (("pf", True), ("rf", False)):
        g = groups[uid]
        front = next(e for e in g.iter(f"{SVG_NS}line") if e.attrib.get("class") == "front")
        pts = polygon_points(g)
        cy = sum(p[1] for p in pts) / 4
        fy = (float(front.attrib["y1"]) + float(front.attrib["y2"])) / 2
        assert (fy < cy) is north_facing


def test_text_from_files_is_escaped() -> None:
    svg = render_map(make_table(), make_state(), side_names={"roy": "<b>Roy</b>", "parl": "P"})
    assert "<script>" not in svg and "<b>" not in svg
    root = svg_tree(svg)
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG_NS}title"))
    assert HOSTILE in texts  # the full name survives, as text, in the unit's tooltip
    assert "<b>Roy</b>" in texts


def test_a_raided_supply_base_is_named_in_words() -> None:
    """A supply base's tooltip names its side and the unit that raided it, never an id."""
    state = make_state()
    raided = state.evolve(own=LargerBattlesData(supplies=(Supply("s1", "roy", 6, 35.5),
                                                          Supply("s2", "parl", 30, 0.5, raided_by="rh"))))
    root = svg_tree(render_map(make_table(), raided, side_names=NAMES))
    tips = [" ".join(t.itertext()) for g in root.iter(f"{SVG_NS}g") if g.attrib.get("class") == "supply"
            for t in g.iter(f"{SVG_NS}title")]
    assert len(tips) == 2
    assert any(t.endswith(f"taken by {HOSTILE}") for t in tips), tips
    assert not any(re.search(r"\bs[12]\b|\brh\b|\bparl\b|\broy\b", t) for t in tips), tips


def test_every_kind_of_ground_is_drawn_with_a_legend() -> None:
    root = svg_tree(render_map(make_table(), make_state(), side_names=NAMES))
    classes = {e.attrib.get("class", "") for e in root.iter()}
    for kind in TerrainKind:
        assert f"terrain {kind.value}" in classes, kind
    legend = next(e for e in root.iter(f"{SVG_NS}g") if e.attrib.get("class") == "legend")
    legend_text = " ".join(legend.itertext())
    for label in ("Royalists", "Parliament", "Woods", "Town", "River", "Hedged field"):
        assert label in legend_text


def test_supplies_objectives_commanders_and_hits() -> None:
    root = svg_tree(render_map(make_table(), make_state(), side_names=NAMES))
    classes = [e.attrib.get("class", "") for e in root.iter()]
    assert classes.count("supply") == 2
    assert classes.count("objective") == 1
    assert classes.count("unit commander") == 2
    # The map draws no hits of its own: what a piece shows is its rule set's.
    assert not [e for e in root.iter(f"{SVG_NS}g") if e.attrib.get("class") == "hits"]
    pieces = LB.presentation().pieces(make_table(), make_state(), None)
    root = svg_tree(render_map(make_table(), make_state(), side_names=NAMES, pieces=pieces))
    hits = [e for e in root.iter(f"{SVG_NS}g") if e.attrib.get("class") == "hits"]
    assert len(hits) == 1 and len(hits[0].findall(f"{SVG_NS}circle")) == 1
    rh = next(e for e in root.iter(f"{SVG_NS}g") if e.attrib.get("data-unit") == "rh")
    assert hits[0] in list(rh)


def test_traces_are_dashed_lines_with_arrowheads() -> None:
    state = make_state()
    traces = [("pf", [(20.0, 4.0), (22.0, 7.0), (20.0, 10.0)]), ("rf", [(20.0, 30.0)])]
    root = svg_tree(render_map(make_table(), state, side_names=NAMES, traces=traces))
    lines = [e for e in root.iter(f"{SVG_NS}polyline") if e.attrib.get("class") == "trace"]
    assert len(lines) == 1  # a path of one point is no movement
    assert lines[0].attrib["data-unit"] == "pf" and "stroke-dasharray" in lines[0].attrib
    layer = next(e for e in root.iter(f"{SVG_NS}g") if e.attrib.get("class") == "traces")
    assert len(layer.findall(f"{SVG_NS}polygon")) == 1  # the arrowhead


def test_standalone_false_leaves_out_the_namespace() -> None:
    svg = render_map(make_table(), make_state(), side_names=NAMES, standalone=False)
    assert "http" not in svg and svg.startswith("<svg ")


@pytest.mark.parametrize(
    ("name", "limit", "expected"),
    [
        ("Essex's Foot", 16, "Essex's Foot"),
        ("Prince Rupert's Lifeguard of Horse", 16, "Rupert's Horse"),
        ("Sir William Balfour's Horse", 12, "Balfour's H."),
    ],
)
def test_abbreviate(name: str, limit: int, expected: str) -> None:
    assert abbreviate(name, limit) == expected
    assert len(abbreviate("A" * 40, 10)) == 10


# --- narrative ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Strange(ev.Event):
    type: ClassVar[str] = "test_strange_event"
    what: str


LB = LargerBattles()


def narrator() -> Narrator:
    return Narrator(make_state(), side_names=NAMES, titles=LB.presentation().title)


ATTACK = fight_ev.AttackResolved(
    kind="combat", attacker="rh", target="pf", supports=("rf",), attacker_score=7,
    defender_score=3, modifiers=("+1 cavalry", "+1 support"), defender_modifiers=(),
    summary="",
)

EVERY_EVENT: list[tuple[ev.Event, str | None]] = [
    (ev.GameStarted(first_side="roy"), "Royalists move first"),
    (ev.TurnBegan(turn=2, side="parl"), "Turn 2 — Parliament"),
    (ev.PhaseBegan(phase="movement"), "Movement phase"),
    (lb_ev.OrderGiven(side="roy", target="roy:centre", purpose="move"), "the centre command"),
    (lb_ev.OrderGiven(side="parl", target="pa", purpose="bombard"), "Guns to bombard"),
    (ev.DiceRolled(purpose="first move: roy", die="d6", value=4), "First move: Royalists: rolled 4"),
    (ev.UnitMoved(unit="pf", path=((20, 10), (20, 13), (23, 16)), facing=45), 'moves 7.2" north'),
    (ev.UnitMoved(unit="pf", path=((20, 10), (20, 10)), facing=90), "turns to face east"),
    (ev.UnitTurned(unit="rf", facing=90), "King's Foot turns to face east"),
    (ev.UnitFormed(unit="rf", formation="long_march", x=20, y=30, width=2, depth=6),
     "King's Foot forms long march"),
    (ev.Marked(mark="moved", ident="rf"), None),
    (ATTACK, "attacks Essex's Foot (supported by 1): 7 (+1 cavalry, +1 support) against 3"),
    (replace(ATTACK, summary="A summary line."), "A summary line (+1 cavalry, +1 support)"),
    (hits_ev.HitsInflicted(unit="rh", hits=1, cause="combat with Essex's Foot"),
     "takes a hit in combat with Essex's Foot (2 in all)"),
    (hits_ev.AmmunitionExhausted(unit="pf"), "Essex's Foot runs out of ammunition"),
    (hits_ev.GunFired(unit="pa"), "Guns have fired"),
    (hits_ev.AmmunitionShortage(unit="pf"), "Essex's Foot runs short of ammunition (1 shortage marker)"),
    (hits_ev.HitsRemoved(unit="rh", hits=1, cause="rally"), "recovers a hit (rally)"),
    (ev.UnitDeployed(unit="pf", x=20, y=6, facing=0), "Essex's Foot deploys at (20.0, 6.0) facing north"),
    (ev.UnitRemoved(unit="pf", reason="routed", detail="3 hits"), "routed and leaves the field (3 hits)"),
    (ev.UnitRemoved(unit="rc", reason="misfortune"), "General Lord Forth suffers a misfortune"),
    (lb_ev.SupplyRaided(supply="s2", by="rh"), "raids Parliament's supply base"),
    (ev.ObjectiveTaken(objective="The Ford", side="roy"), "Royalists take The Ford"),
    (ev.DecisionAwaited(side="parl", kind="encourage", context={}), "Parliament to decide: encourage"),
    (ev.DecisionMade(side="parl", kind="encourage", choice="pc"), "Parliament chooses Earl of Essex"),
    (ev.DecisionMade(side="parl", kind="encourage", choice=None), "Parliament declines"),
    (ev.Narrated(text="The wind veers."), "The wind veers."),
    (ev.UnitStatusChanged(unit="rf", key="morale", value=3), "King's Foot: morale now 3"),
    (ev.GameDataChanged(key="orders_left", value=1), None),
    (dts_ev.UnitActivated(side="parl", unit="pf", card="unit:pf"), "Parliament: Essex's Foot's card"),
    (dts_ev.OptionDeclared(unit="pf", option="advance_and_fire"), "Essex's Foot: advance and fire"),
    (dts_ev.OptionDeclared(unit="pf", option="rally", how="rest"), "Essex's Foot: rally (rest)"),
    (dts_ev.MoveWorkedOut(unit="pf", roll=4, modifiers=((3, "long march"),), open=7, difficult=3, road=10),
     "Essex's Foot may move 7\" (4 +3 long march; 3\" through difficult ground or to a flank, 10\" by road)"),
    (dts_ev.MoveWorkedOut(unit="pf", roll=6, modifiers=(), open=3, difficult=1),
     "Essex's Foot may move 3\" (6, halved as it fires too; 1\" through difficult ground or to a flank)"),
    (dts_ev.ObstacleReached(unit="pf", reached=True), "Essex's Foot halts at an obstacle"),
    (dts_ev.ObstacleReached(unit="pf", reached=False), None),
    (dts_ev.ActivationEnded(unit="pf"), None),
    (dts_ev.VolleyFired(unit="pf", target="rf"), "Essex's Foot fires at King's Foot"),
    (dts_ev.VolleyWorkedOut(unit="pf", target="rf", reach=9, distance=10.25),
     "The volley falls short of King's Foot: it reaches 9\", 10.2\" away"),
    (dts_ev.VolleyWorkedOut(unit="pf", target="rf", reach=7, distance=7.03),
     "The volley falls short of King's Foot: it reaches 7\", 7.03\" away"),
    (dts_ev.VolleyWorkedOut(unit="pf", target="rf", reach=9, distance=4.0, total=12, result="ROUT*",
                            points=2),
     "The volley at King's Foot: 12 on the chart (ROUT*): a rout, a morale point more; 2 morale points lost"),
    (dts_ev.VolleyWorkedOut(unit="pa", target="rf", reach=30, distance=20.0, total=9, result="PB2D6"),
     "The volley at King's Foot: 9 on the chart (PB2D6): pushed back 1D6\"; no morale lost"),
    (dts_ev.VolleyWorkedOut(unit="pa", target="rf", reach=30, distance=20.0, total=8, result="PB1D6"),
     "The volley at King's Foot: 8 on the chart (PB1D6): no push-back (a gun's volley pushes back only on "
     "PB2D6 or ROUT); no morale lost"),
    (dts_ev.VolleyWorkedOut(unit="pf", target="rf", reach=9, distance=4.0, total=9, result="PB2D6", points=1),
     "The volley at King's Foot: 9 on the chart (PB2D6): short of a rout; 1 morale point lost"),
    (dts_ev.GeneralAttached(general="pc", unit="pf"), "Earl of Essex joins Essex's Foot"),
    (dts_ev.DragoonsMounted(unit="pf", mounted=True), "Essex's Foot mount"),
    (dts_ev.DragoonsMounted(unit="pf", mounted=False), "Essex's Foot dismount"),
    (dts_ev.GeneralAttached(general="pc", unit=None), "Earl of Essex rides off on his own"),
    (dts_points.GeneralPointChanged(unit="pf", general="pc", points=1),
     "Earl of Essex adds a morale point to Essex's Foot"),
    (dts_points.GeneralPointChanged(unit="pf", general="pc", points=-1),
     "Essex's Foot loses Earl of Essex's morale point"),
    (dts_points.GeneralPointChanged(unit="pf", general="pc", points=0),
     "Earl of Essex was Essex's Foot's morale point lost"),
    (dts_evasion.Evaded(unit="rc", charger="pf", distance=9.0),
     "Lord Forth evades Essex's Foot's charge, 9.0\" away"),
    (dts_evasion.Evaded(unit="rc", charger="pf", distance=0.0),
     "Lord Forth cannot get clear of Essex's Foot's charge"),
    (dts_forlorn.ForlornHopeFormed(regiment="pf", unit="pf-forlorn-hope", name="Essex's forlorn hope",
                                   ahead=3.0, x=20, y=10, facing=0, width=1.5, depth=1, regiment_x=20,
                                   regiment_y=6, regiment_width=3, regiment_depth=1),
     "Essex's Foot sends its forlorn hope 3.0\" ahead"),
    (dts_rejoin.ForlornHopeRejoined(unit="pf-forlorn-hope", regiment="pf", x=20, y=6, width=4.5, depth=1),
     "rejoins Essex's Foot"),
    (dts_events.EventCardDrawn(event="alarm", side="roy", unit="rf"),
     "Event card: Alarm, striking King's Foot"),
    (dts_events.EventCardDrawn(event="sermon", side="parl", unit=None),
     "Event card: Sermon, striking no unit of Parliament"),
    (dts_events.PowderSpoiled(unit="pf", damp=True),
     "Essex's Foot's powder is damp: it may not fire on its next activation"),
    (dts_events.PowderSpoiled(unit="pf", damp=False), "Essex's Foot's powder is dry again"),
    (dts_rout.UnitBroken(unit="pf"), "Essex's Foot is broken and routs"),
    (dts_rout.UnitRallied(unit="pf"), "Essex's Foot rallies on its colours"),
    (dts_rout.PursuitChanged(unit="rf", target="pf"), "King's Foot pursues Essex's Foot"),
    (dts_rout.PursuitChanged(unit="rf", target=None), "King's Foot stops pursuing"),
    (ev.StandsScattered(unit="pf", places=((20, 4), (18, 2), (22, -1)), width=1.5, depth=1,
                        gone=(False, False, True)),
     "Essex's Foot flees in disorder (2 stands left, 1 stand off the table)"),
    (ev.StandsScattered(unit="pf", places=((20, 4),), width=1.5, depth=1), "(1 stand left)"),
    (ev.StandsGathered(unit="pf", x=20, y=4, facing=0, width=4.5, depth=1),
     "Essex's Foot's stands gather on its colours"),
    (dts_capture.Captured(unit="rh", target="pf", prize="flag"), "captures Essex's Foot's flag"),
    (dts_capture.Captured(unit="rh", target="pf", prize="pc"), "captures Earl of Essex"),
    (ev.GameEnded(winner="roy", score={"roy": 7, "parl": 3}, reason="turn limit", breakdown={}),
     "victory to Royalists — Royalists 7, Parliament 3"),
    (ev.GameEnded(winner=None, score={"roy": 2, "parl": 2}, reason="", breakdown={}), "a draw"),
    (_Strange(what="odd"), "Test strange event: what odd"),
    (_Strange(what="rf"), "Test strange event: what King's Foot"),  # a unit by its name
    (_Strange(what="parl"), "Test strange event: what Parliament"),  # a side by the side's
    (morale_ev.MoraleDetermined(unit="pf", points=3, cause="melee"),
     "Essex's Foot is tested for the first time (melee): 3 morale points"),
    (morale_ev.MoraleLost(unit="pf", points=1, cause="fire"), "Essex's Foot loses 1 morale point (fire)"),
    (morale_ev.MoraleRegained(unit="pf", points=1, cause="rest"),
     "Essex's Foot regains 1 morale point (rest)"),
    (casualty_ev.StandsLost(unit="pf", stands=1, cause="rout"), "Essex's Foot loses 1 stand (rout)"),
    (casualty_ev.FiguresLost(unit="pf", figures=2, cause="fire"), "Essex's Foot loses 2 figures (fire)"),
    (casualty_ev.FiguresLost(unit="pf", figures=2, cause="routing (its army takes fright)"),
     "Essex's Foot loses 2 figures (routing [its army takes fright])"),
    (deck_ev.DeckShuffled(cards=("unit:pf",)), "The deck is shuffled: 1 card"),
    (deck_ev.CardDrawn(card="unit:pf"), "Card drawn: Essex's Foot"),
    (deck_ev.CardsWithdrawn(cards=("unit:pf",)), "Out of the deck: Essex's Foot"),
    (TypeCardDrawn(side="roy", kind="dragoons"), "Royalists' dragoons card drawn"),
    (TypeCardDrawn(side="parl", kind="foot", idle=True), "Parliament's foot card: nothing to activate"),
    (deck_ev.CardDrawn(card="special:free_move:roy"), "Card drawn: Royalists' free move card"),
    (deck_ev.CardDrawn(card="group:centre:roy"), "Card drawn: Royalists' centre card"),
    (cyp_ev.CardPlayed(card="group:centre:roy", side="roy"), "Royalists: the centre card"),
    (cyp_ev.CardPlayed(card="special:officers_and_artillery:parl", side="parl"),
     "Parliament: the Officers & Artillery card"),
    (cyp_ev.CardDone(card="group:centre:roy"), None),
    (cyp_concealment.UnitPlaced(unit="pf", why="the enemy sees it"),
     "Essex's Foot is placed on the table: it is in sight of Royalists"),
    (cyp_concealment.UnitPlaced(unit="pc", why="the enemy sees it"),
     "Earl of Essex is placed on the table: he is in sight of Royalists"),
    (cyp_concealment.Unseen(sides=("parl",), event=cyp_ev.MovedOnCard(unit="pf").to_dict()), None),
    (cyp_concealment.Unseen(sides=("parl",), event=ev.UnitMoved(unit="pf", path=((20, 10), (20, 14)),
                                                              facing=0).to_dict()),
     "Unseen by the enemy: Essex's Foot"),
    (cyp_ev.CommandResponded(card="group:centre:roy", officer="pc", units=("pf",), face=10, obeyed=False),
     "Essex's Foot, under Earl of Essex, roll 10, read as 0: no move"),
    (cyp_ev.CommandResponded(card="group:centre:roy", officer=None, units=("pf", "rf"), face=3, obeyed=True),
     "Essex's Foot, King's Foot, without officer, roll 3: they may move"),
    (cyp_ev.CommandResponded(card="special:officers_and_artillery:parl", officer=None, units=("pc",), face=0,
                             obeyed=True), "Earl of Essex moves without a command roll"),
    (cyp_ev.CommandResponded(card="group:centre:roy", officer=None, units=("pf",), face=3, obeyed=True),
     "Essex's Foot, without officer, roll 3: it may move"),
    (cyp_ev.MovedOnCard(unit="pf"), None),
    (cyp_ev.ChargeMade(attacker="rh", target="pf", x=1, y=2, facing=0, fatigued=2),
     "charges Essex's Foot, 2 men fatigued"),
    (cyp_ev.UnitChanged(unit="pf", values=(("formation", "square"),), why="forms"),
     "Essex's Foot forms: in square"),
    (cyp_ev.UnitChanged(unit="pf", values=(("disordered", True), ("falling_back", True)), why="closed on"),
     "Essex's Foot closed on: disordered, falling back"),
    (cyp_ev.UnitChanged(unit="pf", values=(("formation", "routed"), ("falling_back", False)),
                        why="routs (its army takes fright)"), "Essex's Foot routs (its army takes fright)"),
    (cyp_ev.UnitChanged(unit="pf", values=(("disordered", True), ("falling_back", True), ("morale", 2)),
                        why="falls back (fired on)"), "Essex's Foot falls back (fired on): morale 2"),
    (cyp_ev.UnitChanged(unit="pf", values=(("mounted", False),), why="dismounts"),
     "Essex's Foot dismounts: dismounted"),
    (cyp_ev.UnitChanged(unit="pf", values=(("acts", 1),), why="moves"), None),
    (cyp_ev.PhaseStep(step="standing_fire", side="parl"), "Parliament gives orders for standing fire"),
    (cyp_ev.PhaseStep(step="moving_fire", side="roy"), "Royalists give orders for moving fire"),
    (cyp_ev.FireOrdered(unit="pf", target="rh", kind="musket"), "Essex's Foot is ordered to fire at"),
    (cyp_ev.FireOrdered(unit="pa", target="rh", kind="canister"), "Guns are ordered to fire canister at"),
    (cyp_ev.OrdersDone(side="parl"), None),
    (cyp_ev.MeleeLocked(charges=(("rh", "pf", 1.0, 2.0, 0.0, 0),)),
     "Essex's Foot are locked in melee: it goes on next turn"),
    (cyp_ev.StepOver(), None),
    (cyp_artillery.PlacesNoted(places=()), None),
    (cyp_bonus.BonusOffered(unit="rh", breakthrough=True, foes=("pf",)),
     "may make a bonus move or a breakthrough"),
    (cyp_bonus.BonusSpent(units=("rh",)), None),
    (cyp_bonus.CloseCombatOver(), None),
    (cyp_reaction.Steadied(unit="pf", purpose="move_away"), "Essex's Foot holds together under the charge "
     "and may move away from the charge"),
    (cyp_reaction.ChargeEvaded(unit="pf", chargers=("rh",)), "Essex's Foot moves away from the charge of"),
    (cyp_charge.ChargeLapsed(attacker="rh", target="pf", apart=17.0),
     "charge on Essex's Foot comes to nothing: they stand 17.0\" apart, too far to close"),
    (cyp_casualties.FiguresKilled(unit="pf", figures=2, pike=1, shot=1, men=0, cause="musketry"),
     "Essex's Foot loses 2 figures (musketry)"),
    (cyp_morale.MoraleTested(unit="pf", why="fired on", rating=2, die=3, modifiers=(("disordered", -1),),
                             total=4, passed=False),
     "Essex's Foot tests morale (fired on): 2 + 3 -1 disordered = 4, fails"),
    (cyp_army.ArmyMoraleTested(side="roy", lost=30, strength=100, vital_lost=1, roll=8, needed=9,
                               fright=True, modifiers=(("vital_points_lost", 1),), total=9),
     "Royalists' army, 30 of 100 figures lost (30%), rolls 8 +1 for 1 vital point lost = 9 (fright on 9+): "
     "it takes fright"),
    (cyp_army.ArmyMoraleTested(side="roy", lost=10, strength=100, vital_lost=0, roll=10, needed=11,
                               fright=False, total=10),
     "Royalists' army, 10 of 100 figures lost (10%), rolls 10 (fright on 11+): it holds"),
    (cyp_army.ArmyMoraleTested(side="parl", lost=60, strength=100, vital_lost=0, roll=None, needed=None,
                               fright=True),
     "Parliament's army takes fright without a roll: 60 of 100 figures lost (60%)"),
    (cyp_grades.GradeRolled(officer="pc", side="parl", grade="natural_born_leader"),
     "Earl of Essex's value is rolled: natural born leader (kept from the enemy)"),
    (cyp_grades.GradeRevealed(officer="pc", side="parl", grade="effective", why="command response"),
     "Earl of Essex is called on (command response): his value is shown, effective"),
]


SAID_ONCE: list[tuple[cyp_ev.UnitChanged, str]] = [
    (cyp_ev.UnitChanged(unit="pf", values=(("mounted", True),), why="mount"), "Essex's Foot mounts"),
    (cyp_ev.UnitChanged(unit="pf", values=(("mounted", False),), why="dismount"), "Essex's Foot dismounts"),
    (cyp_ev.UnitChanged(unit="pf", values=(("disordered", False),), why="halts and dresses its ranks"),
     "Essex's Foot halts and dresses its ranks"),
    (cyp_ev.UnitChanged(unit="pf", values=(("disordered", False), ("falling_back", False)),
                        why="halts and dresses its ranks"), "Essex's Foot halts and dresses its ranks"),
    (cyp_ev.UnitChanged(unit="pf", values=(("falling_back", False),),
                        why="passes its command response and ends its fall back"),
     "Essex's Foot passes its command response and ends its fall back"),
]
"""Changes of a Charge yr Pikes! unit whose reason says all there is to tell, and their line."""


@pytest.mark.parametrize(("name", "moved", "removed", "stays"), [
    ("Usher's Dragoons", "Usher's Dragoons move", "Usher's Dragoons are routed and leave the field",
     "Usher's Dragoons stay where they are"),
    ("Essex's Foot", "Essex's Foot moves", "Essex's Foot is routed and leaves the field",
     "Essex's Foot stays where it is"),
    ("The Reserve of Three Cornets", "The Reserve of Three Cornets moves",
     "The Reserve of Three Cornets is routed and leaves the field",
     "The Reserve of Three Cornets stays where it is"),
])
def test_a_piece_named_in_the_plural_takes_its_verbs_in_the_plural(name: str, moved: str,
                                                                   removed: str, stays: str) -> None:
    """A sentence is written for a piece in the singular; a name whose head noun is plural
    ("Usher's Dragoons", not "The Reserve of Three Cornets") takes the plural, each verb
    of its clause."""
    state = make_state()
    state = state.with_unit(state.units["pf"].evolve(name=name))
    lines = Narrator(state, side_names=NAMES).lines([
        ev.UnitMoved(unit="pf", path=((20.0, 10.0), (20.0, 10.0)), facing=0.0),
        ev.UnitMoved(unit="pf", path=((20.0, 10.0), (20.0, 14.0)), facing=0.0),
        ev.UnitRemoved(unit="pf", reason="routed"),
    ])
    assert lines[0] == stays, lines
    assert lines[1].startswith(moved + " "), lines
    assert lines[2].startswith(removed), lines


@pytest.mark.parametrize(("event", "told"), SAID_ONCE, ids=lambda x: getattr(x, "why", ""))
def test_a_change_its_reason_already_tells_is_not_told_again(event: cyp_ev.UnitChanged, told: str) -> None:
    """Charge yr Pikes!: a change of a unit's state told by its reason is told once, not
    again after a colon ("mount: mounted", "halts and dresses its ranks: in good order")."""
    assert narrator().line(event) == told


def test_a_name_opening_with_the_is_told_with_the_within_a_sentence() -> None:
    """"Prince Rupert's Lifeguard attacks the Reserve of Three Cornets", not "attacks
    The Reserve ...": the article of a name is lowered within a sentence, in a die's line
    too, and kept where the name opens the line."""
    state = make_state()
    state = state.with_unit(state.units["pf"].evolve(name="The Reserve of Three Cornets"))
    lines = Narrator(state, side_names=NAMES).lines([
        cyp_ev.ChargeMade(attacker="rf", target="pf", x=1, y=2, facing=0, fatigued=0),
        ev.DiceRolled(purpose="morale: The Reserve of Three Cornets", die="d6", value=4),
        ev.UnitRemoved(unit="pf", reason="routed"),
    ])
    assert lines == ["King's Foot charges the Reserve of Three Cornets",
                     "Dice — morale: the Reserve of Three Cornets: 4 (d6)",
                     "The Reserve of Three Cornets is routed and leaves the field"], lines


@pytest.mark.parametrize(("event", "expected"), EVERY_EVENT, ids=lambda x: getattr(x, "type", ""))
def test_a_line_for_each_event_type(event: ev.Event, expected: str | None) -> None:
    line = narrator().line(event)
    if expected is None:
        assert line is None
    else:
        assert line is not None and expected in line, line


@pytest.mark.parametrize(("event", "expected"), EVERY_EVENT, ids=lambda x: getattr(x, "type", ""))
def test_a_line_begins_with_a_capital_unless_with_a_name(event: ev.Event, expected: str | None) -> None:
    """A sentence begins with a capital letter; a line may begin in lower case only with a
    piece's name as written (an id the narrator has no name for)."""
    line = narrator().line(event)
    if line is None or not line[0].islower():
        return
    names = [v for f in fields(event) if isinstance(v := getattr(event, f.name), str)]
    assert any(line.startswith(name) for name in names), line


def test_a_commander_is_titled_by_his_rule_set_and_named_alone_without_one() -> None:
    """larger-battles titles its commanders (General, Commander) before their names in
    the narrative; a narrator given no titles names them alone."""
    misfortune = ev.UnitRemoved(unit="rc", reason="misfortune")
    assert (narrator().line(misfortune) or "").startswith("General Lord Forth suffers a misfortune")
    assert (narrator().line(ev.UnitRemoved(unit="pc", reason="misfortune")) or "").startswith(
        "Commander Earl of Essex suffers a misfortune")
    bare = Narrator(make_state(), side_names=NAMES).line(misfortune)
    assert (bare or "").startswith("Lord Forth suffers a misfortune")


@pytest.mark.parametrize(("rules", "heading"), [
    ("larger-battles", "Turn 2 — Parliament"), ("d3-cards", "Turn 2"), ("d3-commands", "Turn 2"),
    ("declare-thee-sir", "Turn 2"), ("charge-yr-pikes", "Turn 2"),
])
def test_a_turn_is_headed_by_its_side_only_where_it_is_that_sides(rules: str, heading: str) -> None:
    """Under the D3 rules, Declare Thee Sir and Charge yr Pikes! both sides act in every
    turn, a card at a time: the turn is named alone, not as the first side's."""
    told = Narrator.for_rules(get_ruleset(rules), make_state(), side_names=NAMES)
    assert told.line(ev.TurnBegan(turn=2, side="parl")) == heading


def test_a_turn_begun_again_with_each_card_is_headed_once() -> None:
    """The D3 rules begin the turn and its activation phase again with each card drawn;
    the log heads the turn and the phase once, and heads the next turn and its first
    phase again. Where each side has a turn of its own, each is headed."""
    def card(turn: int, side: str) -> list[ev.Event]:
        return [ev.TurnBegan(turn=turn, side=side), ev.PhaseBegan(phase="activation"),
                TypeCardDrawn(side=side, kind="foot")]

    events = [*card(2, "parl"), *card(2, "roy"), *card(3, "roy"), *card(3, "parl")]
    told = Narrator.for_rules(get_ruleset("d3-cards"), make_state(), side_names=NAMES).lines(events)
    assert told == ["Turn 2", "Activation phase", "Parliament's foot card drawn",
                    "Royalists' foot card drawn", "Turn 3", "Activation phase",
                    "Royalists' foot card drawn", "Parliament's foot card drawn"]
    apart = Narrator.for_rules(get_ruleset("larger-battles"), make_state(), side_names=NAMES).lines(events)
    assert [line for line in apart if line.startswith("Turn") or line.endswith("phase")] == [
        "Turn 2 — Parliament", "Activation phase", "Turn 2 — Royalists", "Activation phase",
        "Turn 3 — Royalists", "Activation phase", "Turn 3 — Parliament", "Activation phase"]


def test_a_decision_awaited_gives_way_to_its_choice_told_at_once() -> None:
    """"Royalists to decide: …" followed at once by the Royalists' choice of that decision
    is told by the choice alone; awaited alone, or followed by another's choice, it stays."""
    awaited = ev.DecisionAwaited(side="roy", kind="card_order", context={})
    made = ev.DecisionMade(side="roy", kind="card_order", choice="centre")
    theirs = ev.DecisionMade(side="parl", kind="card_order", choice="centre")
    told = narrator().lines([awaited, made])
    assert len(told) == 1 and told[0].startswith("Royalists choose")
    assert len(narrator().lines([awaited])) == 1
    assert [line.split(" ")[0] for line in narrator().lines([awaited, theirs])] == ["Royalists", "Parliament"]


def test_two_decisions_awaited_together_each_give_way_to_their_choice() -> None:
    """A charge awaits two answers at once (the charged unit's and a countercharge):
    each choice takes its own decision's place while only decisions were told between;
    a die rolled in between leaves the one still awaited."""
    charged = ev.DecisionAwaited(side="roy", kind="charged", context={})
    counter = ev.DecisionAwaited(side="roy", kind="countercharge", context={})
    stand = ev.DecisionMade(side="roy", kind="charged", choice="stand")
    meet = ev.DecisionMade(side="roy", kind="countercharge", choice="rf")
    both = narrator().lines([charged, counter, stand, meet])
    assert [line.split(" (")[-1] for line in both] == ["charged)", "countercharge)"]
    assert all(" chooses " in line or " choose " in line for line in both)
    die = ev.DiceRolled(purpose="musket range", die="d6", value=2)
    apart = narrator().lines([charged, counter, stand, die, meet])
    assert any("to decide: countercharge" in line for line in apart)
    assert not any("to decide: charged" in line for line in apart)


@pytest.mark.parametrize(("rules", "kind", "choice", "told"), [
    ("larger-battles", "encourage", "rc", "Royalists send Lord Forth to encourage the defence"),
    ("d3-commands", "order_cards", "4 cards face down", "Royalists lay 4 cards face down"),
    ("charge-yr-pikes", "cyp_deploy", "done", "Royalists finish deploying"),
    ("d3-cards", "no such decision", "rf", "Royalists choose King's Foot (no such decision)"),
])
def test_a_choice_is_told_in_its_rule_sets_words(rules: str, kind: str, choice: str, told: str) -> None:
    """A decision's ``made`` tells its choice ("Royalists lay 4 cards face down"); one the
    rule set declares no words for is told as a choice ("choose …")."""
    ruleset = get_ruleset(rules)
    found = ruleset.decision_kind(kind)
    assert (found is not None and bool(found.made)) is not told.startswith("Royalists choose")
    line = Narrator.for_rules(ruleset, make_state(), side_names=NAMES).line(
        ev.DecisionMade(side="roy", kind=kind, choice=choice))
    assert (line or "").startswith(told)


@pytest.mark.parametrize(("rules", "told"), [
    ("larger-battles", "Royalists send no commander to encourage the defence"),
    ("d3-commands", "Royalists decline (command card order)"),
])
def test_choosing_nothing_is_told_in_its_rule_sets_words(rules: str, told: str) -> None:
    """A decision's ``declined`` tells the answer that chooses nothing ("send no commander
    to encourage the defence"); one the rule set declares no words for is told as declined."""
    ruleset = get_ruleset(rules)
    kind = "encourage" if rules == "larger-battles" else "order_cards"
    found = ruleset.decision_kind(kind)
    assert found is not None and bool(found.declined) is (rules == "larger-battles")
    line = Narrator.for_rules(ruleset, make_state(), side_names=NAMES).line(
        ev.DecisionMade(side="roy", kind=kind, choice=None))
    assert line == told


def test_a_card_drawn_is_told_once_where_a_heading_tells_it() -> None:
    """The deck's "Card drawn: …" gives way to the rule set's heading for the same card,
    told at once after it; alone, it stays."""
    drawn = deck_ev.CardDrawn(card="group:centre:roy")
    played = cyp_ev.CardPlayed(card="group:centre:roy", side="roy")
    both = narrator().entries([drawn, played])
    assert [(line.text, line.kind) for line in both] == [("Royalists: the centre card", "heading")]
    assert [line.text for line in narrator().entries([drawn])] == ["Card drawn: Royalists' centre card"]


def test_a_decision_its_rule_set_tells_has_no_generic_line() -> None:
    """Declare Thee Sir tells a declaration by its own event ("Essex's Foot: advance"), so
    the log leaves out "Parliament to decide: declaration" and "… chooses advance";
    larger-battles' encouragement, which no event of its own tells, keeps both lines."""
    dts = Narrator.for_rules(get_ruleset("declare-thee-sir"), make_state(), side_names=NAMES)
    assert dts.line(ev.DecisionAwaited(side="parl", kind="declare", context={})) is None
    assert dts.line(ev.DecisionMade(side="parl", kind="declare", choice="advance")) is None
    assert dts.line(dts_ev.OptionDeclared(unit="pf", option="advance")) == "Essex's Foot: advance"
    lb = Narrator.for_rules(LB, make_state(), side_names=NAMES)
    assert lb.line(ev.DecisionAwaited(side="parl", kind="encourage", context={})) == \
        "Parliament to decide: encourage the defence"


def test_every_core_event_type_is_covered() -> None:
    covered = {e.type for e, _ in EVERY_EVENT}
    assert {t for t in ev.EVENT_TYPES if not t.startswith("test_")} <= covered


def test_narrator_follows_the_state() -> None:
    n = narrator()
    n.line(hits_ev.HitsInflicted(unit="pf", hits=1, cause="combat"))
    assert n.line(hits_ev.HitsInflicted(unit="pf", hits=2, cause="bombardment")) == (
        "Essex's Foot takes 2 hits from bombardment (3 in all)"
    )


def test_narrator_without_state_uses_labels_and_ids() -> None:
    n = Narrator(labels={"x": "Hopton's Horse"})
    assert n.line(hits_ev.AmmunitionExhausted(unit="x")) == "Hopton's Horse runs out of ammunition"
    assert n.line(hits_ev.GunFired(unit="g9")) == "g9 has fired and may now only pivot"


def test_entries_fold_an_attacks_dice_into_its_line() -> None:
    events = [
        ev.DiceRolled(purpose="misfortune: Lord Forth", die="d6", value=2),
        ev.DiceRolled(purpose="combat: rh attacking pf", die="d6", value=5),
        ev.DiceRolled(purpose="combat: pf defending against rh", die="d6", value=3),
        ATTACK,
        hits_ev.HitsInflicted(unit="pf", hits=1, cause="combat"),
    ]
    lines = narrator().entries(events)
    assert [line.kind for line in lines] == ["dice", "attack", "hit"]
    assert "misfortune: Lord Forth: 2" in lines[0].text
    assert "5+2=7 (+1 cavalry, +1 support) against 3+0=3" in lines[1].text
    assert lines[2].text == "Essex's Foot: 1 hit in all"


def test_entries_gather_loose_dice_and_drop_empty_phases() -> None:
    events = [
        ev.PhaseBegan(phase="movement"),
        ev.PhaseBegan(phase="bombardment"),
        ev.Marked(mark="x", ident="y"),
        ev.PhaseBegan(phase="combat"),
        ev.DiceRolled(purpose="ammunition: Essex's Foot", die="d6", value=1),
        hits_ev.AmmunitionExhausted(unit="pf"),
        ev.PhaseBegan(phase="routing"),
    ]
    texts = narrate(events, make_state(), NAMES)
    assert texts == [
        "Combat phase",
        "Dice — ammunition: Essex's Foot: 1 (d6)",
        "Essex's Foot runs out of ammunition",
    ]


def test_iter_turn_blocks_groups_by_player_turn() -> None:
    events = [
        ev.DiceRolled(purpose="first", die="d6", value=3),
        ev.GameStarted(first_side="roy"),
        ev.TurnBegan(turn=1, side="roy"),
        ev.PhaseBegan(phase="movement"),
        ev.TurnBegan(turn=1, side="parl"),
        ev.TurnBegan(turn=2, side="roy"),
        ev.GameEnded(winner=None, score={}, reason="", breakdown={}),
    ]
    blocks = list(iter_turn_blocks(events))
    assert [(b.turn, b.side, len(b.events)) for b in blocks] == [
        (None, None, 2), (1, "roy", 2), (1, "parl", 1), (2, "roy", 2),
    ]
    assert list(iter_turn_blocks([])) == []


# --- the report --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    events: tuple[ev.Event, ...]
    state: GameState


def play(state: GameState, events: list[ev.Event]) -> GameState:
    for e in events:
        state = reduce(state, e)
    return state


def synthetic_game() -> tuple[GameState, list[ev.Event], list[tuple[object, list[ev.Event], GameState]]]:
    initial = make_state()
    start: list[ev.Event] = [
        ev.DiceRolled(purpose="first move: roy", die="d6", value=5),
        ev.DiceRolled(purpose="first move: parl", die="d6", value=2),
        ev.GameStarted(first_side="roy"),
        ev.TurnBegan(turn=1, side="roy"),
        ev.PhaseBegan(phase="movement"),
    ]
    state = play(initial, start)
    scripts: list[list[ev.Event]] = [
        [lb_ev.OrderGiven(side="roy", target="roy:centre", purpose="move"),
         ev.UnitMoved(unit="rf", path=((20, 30), (20, 26), (21, 22)), facing=180)],
        [ev.PhaseBegan(phase="combat"), ev.TurnBegan(turn=1, side="parl"),
         ev.PhaseBegan(phase="movement")],
        [ev.UnitMoved(unit="pf", path=((20, 10), (20, 16)), facing=0)],
        [ev.PhaseBegan(phase="combat"),
         ev.DiceRolled(purpose="combat: pf attacking rf", die="d6", value=6),
         ev.DiceRolled(purpose="combat: rf defending", die="d6", value=1),
         replace(ATTACK, attacker="pf", target="rf", summary="Essex's Foot routs the King's men"),
         hits_ev.HitsInflicted(unit="rf", hits=1, cause="combat"),
         ev.UnitRemoved(unit="rf", reason="routed", detail="1 hit"),
         ev.TurnBegan(turn=2, side="roy"), ev.PhaseBegan(phase="movement")],
        [ev.UnitMoved(unit="rh", path=((30, 24), (30, 20)), facing=180, reason="charge"),
         lb_ev.SupplyRaided(supply="s2", by="rh"),
         ev.GameEnded(winner="parl", score={"roy": 3, "parl": 4}, reason="objective taken",
                      breakdown={"roy": {"supplies_attacked": 3}, "parl": {"routed_units": 4},
                                 "units_lost": {"roy": 1, "parl": 1}})],
    ]
    steps: list[tuple[object, list[ev.Event], GameState]] = []
    for script in scripts:
        state = play(state, script)
        steps.append((EndPhase(), script, state))
    return initial, start, steps


def test_collect_turns_snapshots_each_game_turn() -> None:
    initial, start, steps = synthetic_game()
    turns = collect_turns(initial, steps, start_events=start, side_names=NAMES)
    assert [t.turn for t in turns] == [0, 1, 2]
    assert turns[0].state.units["rf"].y == 30  # deployment
    assert turns[1].state.units["rf"].removed == "routed"  # end of game turn 1
    assert turns[1].state.units["rh"].y == 24  # before turn 2's charge
    assert turns[2].state.units["rh"].y == 20
    assert [u for u, _ in turns[1].traces] == ["rf", "pf"]
    assert turns[1].removed == ["rf"]
    assert [pt.side for pt in turns[1].player_turns] == ["roy", "parl"]
    assert [pt.side for pt in turns[0].player_turns] == [None]
    assert any("Royalists move first" in line.text for line in turns[0].player_turns[0].lines)


def test_the_die_that_draws_a_card_is_told_with_the_card() -> None:
    """The D3 rules roll the die that draws the next card, then begin that card's turn:
    the report tells the die in the player turn it begins, not at the end of the last
    (the dice before it, and a die with anything told after it, stay where they are)."""
    initial = make_state()
    fired = ev.DiceRolled(purpose="ammunition: Guns", die="d6", value=3)
    drawn = ev.DiceRolled(purpose="draw a card", die="d8", value=4)
    script: list[ev.Event] = [
        ev.TurnBegan(turn=2, side="parl"), ev.Narrated(text="parl artillery card drawn"), fired, drawn,
        ev.Marked(mark="drawn", ident="foot"), ev.TurnBegan(turn=2, side="roy"),
        ev.Narrated(text="roy horse card drawn")]
    steps = [(EndPhase(), script, play(initial, script))]
    turns = collect_turns(initial, steps, side_names=NAMES)
    parl, roy = turns[-1].player_turns[-2:]
    assert [line.text for line in parl.lines] == ["Parliament artillery card drawn",
                                                  "Dice — ammunition: Guns: 3 (d6)"]
    assert [line.text for line in roy.lines] == ["Dice — draw a card: 4 (d8)", "Royalists horse card drawn"]


def test_a_die_rolled_before_the_step_that_begins_a_turn_stays_in_its_own() -> None:
    """The last card of a turn is drawn with no die (one card left): the ammunition die
    the step before rolled stays with the guns that fired, not with the card drawn next."""
    initial = make_state()
    fired = ev.DiceRolled(purpose="ammunition: Guns", die="d6", value=1)
    shot: list[ev.Event] = [ev.TurnBegan(turn=2, side="roy"), ev.Narrated(text="roy artillery card drawn"),
                            fired]
    after_shot = play(initial, shot)
    ended: list[ev.Event] = [ev.TurnBegan(turn=2, side="parl"), ev.Narrated(text="parl artillery card drawn")]
    steps = [(EndPhase(), shot, after_shot), (EndPhase(), ended, play(after_shot, ended))]
    roy, parl = collect_turns(initial, steps, side_names=NAMES)[-1].player_turns[-2:]
    assert [line.text for line in roy.lines] == ["Royalists artillery card drawn",
                                                 "Dice — ammunition: Guns: 1 (d6)"]
    assert [line.text for line in parl.lines] == ["Parliament artillery card drawn"]


def test_a_side_named_within_a_note_or_a_dies_purpose_goes_without_its_aside() -> None:
    """"Parliament dragoons card drawn", not "Parliament (Earl of Essex) dragoons card
    drawn": the words go on after the name. Alone, a side keeps its aside."""
    told = Narrator(make_state(), side_names={"parl": "Parliament (Earl of Essex)"})
    assert told.purpose("parl dragoons card drawn") == "Parliament dragoons card drawn"
    assert told.side("parl") == "Parliament (Earl of Essex)"


@pytest.mark.parametrize(("opens", "shared", "heading"), [
    ("parl dragoons card drawn", True, "Parliament dragoons card drawn"),
    ("parl dragoons card drawn", False, "Parliament dragoons card drawn"),
    ("The deck is shuffled", True, None),
    ("The deck is shuffled", False, "Parliament (Earl of Essex)"),
])
def test_a_player_turn_is_headed_by_its_card_or_its_side(opens: str, shared: bool,
                                                          heading: str | None) -> None:
    """A player turn that opens, past its die, on the side's card is headed by that card
    (told once, not again under the side's name); otherwise by the side, or by nothing
    where both sides play in the turn."""
    initial = make_state()
    drawn = ev.DiceRolled(purpose="draw a card", die="d8", value=2)
    script: list[ev.Event] = [ev.TurnBegan(turn=1, side="parl"), drawn, ev.Narrated(text=opens),
                              ev.Narrated(text="a shot is fired")]
    turns = collect_turns(initial, [(EndPhase(), script, play(initial, script))], side_names=NAMES)
    html = _narrative(turns[-1], {"parl": "Parliament (Earl of Essex)"}, shared=shared)
    assert re.findall(r"<h3>(.*?)</h3>", html) == ([heading] if heading else [])
    told = re.findall(r"<li [^>]*>(.*?)</li>", html)
    assert told[0].startswith("Dice — draw a card") and told[-1] == "a shot is fired"
    assert len(told) == (2 if heading and heading.endswith("drawn") else 3)


def test_collect_turns_takes_step_objects_too() -> None:
    initial, start, steps = synthetic_game()
    objects = [_Step(tuple(events), after) for _, events, after in steps]
    turns = collect_turns(initial, objects, start_events=start)
    assert [t.turn for t in turns] == [0, 1, 2]


def test_report_is_one_self_contained_page_with_every_turn(tmp_path: Path) -> None:
    initial, start, steps = synthetic_game()
    html = build_report_html(
        title=f"Battle of {HOSTILE}", table=make_table(), initial_state=initial, steps=steps,
        start_events=start, side_names=NAMES, ruleset="larger-battles 1.0", seed=1642,
        description="A test.", details={"Players": "doctrine"},
    )
    assert html.startswith("<!DOCTYPE html>") and html.count("<html") == 1
    # Nothing is loaded from elsewhere.
    assert not re.search(r"https?://", html)
    assert not re.search(r"<link|<img|<iframe|@import|\bsrc=|url\((?!#)", html)
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    # The deployment and each game turn: a section with a map and its narrative.
    for anchor in ("deployment", "turn-1", "turn-2"):
        assert f'id="{anchor}"' in html
    sections = re.findall(r'<section class="turn" id="([^"]+)">(.*?)</section>', html, re.S)
    assert [a for a, _ in sections] == ["deployment", "turn-1", "turn-2"]
    for _, body in sections:
        svgs = re.findall(r"<svg.*?</svg>", body, re.S)
        assert len(svgs) == 1
        ET.fromstring(svgs[0])  # each map is well-formed on its own
        assert '<div class="narrative">' in body
    by_anchor = dict(sections)
    assert "Royalists move first" in by_anchor["deployment"]
    assert "Essex&#x27;s Foot routs the King&#x27;s men" in by_anchor["turn-1"]
    assert "King&#x27;s Foot is routed and leaves the field" in by_anchor["turn-1"]
    assert by_anchor["turn-1"].count('class="trace"') == 2
    assert by_anchor["turn-2"].count('class="trace"') == 1
    assert "charges" in by_anchor["turn-2"] and "victory to Parliament" in by_anchor["turn-2"]
    # The result: verdict, score table with the breakdown, losses, order of battle.
    result = re.search(r'<section class="result".*?</section>', html, re.S)
    assert result is not None
    text = result.group(0)
    assert "Victory to Parliament" in text and "objective taken" in text
    assert "Supplies attacked" in text and "Routed units" in text
    assert "1 of 2 (1 routed)" in text  # Royalist troops lost
    assert "Routed, turn 1" in text
    assert "1642" in html and "larger-battles 1.0" in html


def test_write_report_writes_the_same_page(tmp_path: Path) -> None:
    initial, start, steps = synthetic_game()
    kwargs = dict(title="T", table=make_table(), initial_state=initial, steps=steps,
                  start_events=start, side_names=NAMES)
    path = write_report(tmp_path / "report.html", **kwargs)
    assert path.read_text(encoding="utf-8") == build_report_html(**kwargs)  # type: ignore[arg-type]


def test_report_of_an_unfinished_game() -> None:
    initial = make_state()
    html = build_report_html(title="Unfought", table=make_table(), initial_state=initial, steps=[])
    assert "not finished" in html and 'id="deployment"' in html and 'id="turn-1"' not in html


def test_report_steps_may_carry_real_actions() -> None:
    initial, start, steps = synthetic_game()
    steps[0] = (Move(unit="rf", waypoints=((21, 22),)), steps[0][1], steps[0][2])
    html = build_report_html(title="T", table=make_table(), initial_state=initial, steps=steps,
                             start_events=start)
    assert 'id="turn-2"' in html


def test_each_d3_cards_turn_of_the_report_tells_its_own_ten_cards() -> None:
    """D3 cards: the next turn's deck is gathered and drawn until a card finds a side to
    act; the cards so turned idle are told under that turn, not at the end of the last."""
    game = Game(get_ruleset("d3-cards"), load_builtin("chalgrove"))
    record = fight_battle(game, {s: make_player("baseline") for s in game.scenario.side_ids}, 7)
    page = build_report_for(record)
    sections = re.findall(r'<section class="turn" id="turn-\d+">(.*?)</section>', page, flags=re.S)
    cards = [len(re.findall(r"card drawn<|card: nothing to activate<", s)) for s in sections]
    assert len(cards) == record.final_state.turn
    assert cards[:-1] == [10] * (len(cards) - 1) and 0 < cards[-1] <= 10, cards
