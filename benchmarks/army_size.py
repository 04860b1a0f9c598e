"""CPU cost per action against army size: is it flat? Generated battles of N units a side,
doctrine against doctrine (or any player, ``--player``, against itself), under each rule set.

For each rule set (``--rules``, all five by default) and each army size N (``--sizes``,
default 4 8 16 32 64), a battle of N units a side is generated from a built-in scenario
(Edgehill: its sides, turns, table depth and each rule set's stand sizes, the table made
wider as the armies need; no terrain): the two armies in lines facing each other, about
half foot, a third horse, some dragoons and a gun per eight units, with what the rule
set asks of an army (larger-battles and d3: commands and commanders, larger-battles'
supply bases; Declare Thee Sir: its regiments and generals; Charge yr Pikes!: tertias of
three to five units with a brigadier each, wing commanders, the train, the baggage and
each side's points). The scenario is written as TOML and read back through the scenario
loader (``load_scenario(..., rules_id=...)``), so every check of the rule set applies.

``--games`` battles a size are fought on fixed seeds (``--seed``, ``--seed`` + 1 ...)
after one short warm-up battle. Reported per size: CPU milliseconds per action
(``time.process_time`` around ``fight_battle``, the AI's choices included, divided by
the actions played) and actions per battle; per rule set, the ratio of ms per action at
the largest size to that at 8 (the target: cost flat in army size, at most 1.5x). A
battle stopped at ``--max-actions`` still counts its actions and time, and is marked; one
that fails (an illegal action, an error) is marked with the error, the run goes on, and
the script exits 1.

Usage: python benchmarks/army_size.py [--rules larger-battles ...] [--sizes 4 8 16 32 64]
    [--games 2] [--seed 1] [--player doctrine] [--max-actions 20000] [--json FILE]
    [--smoke]  (sizes 4 and 8, one game capped at a few actions, each rule set: the script works)
    [--show RULES:N]  (print the generated scenario's TOML and stop)
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tertia.scenarios
from tertia.ai.players import DEFAULT_PLAYER, UnknownPlayer, entry, make_player
from tertia.battle import MAX_ACTIONS, BattleAborted, Step, fight_battle
from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import UnitKind
from tertia.io.scenario_file import load_scenario
from tertia.rulesets import get_ruleset, ruleset_ids

TEMPLATE = "edgehill"
"""The built-in scenario every generated battle starts from (written for all five rule sets)."""

TEMPLATE_KEYS = ("stands", "year")
"""What a rule set's table in the template gives a generated battle: its scale."""

UNIT_GAP = 1.0
"""Inches between neighbouring units of one body."""
ROW_GAP = 0.5
"""Inches between the ranks of one body, and before its commanders."""
BODY_GAP = 3.0
"""Inches between the bodies (commands, tertias, batteries) of a line."""
MARGIN = 4.0
"""Inches from the table's side edges to the ends of the lines."""
STANDOFF = 10.0
"""Inches from the centre line to each army's front (Edgehill's armies stand about 20" apart)."""
CYP_STANDOFF = 12.5
"""Charge yr Pikes!: no troops within 12" of the centre line (Set-up D)."""
LB_MAX_COLUMNS = 5
"""larger-battles: units deploy within 12" of their commander, who stands in the middle of
his command; five 4" bases a rank keep the outermost within reach."""
MAX_COLUMNS = 8
"""Other rule sets: the widest rank of a body before it takes a second."""
BASE_SIZE = 8
"""The army size the largest is compared with."""
TARGET_RATIO = 1.5

BAGGAGE_PARKS = 3
"""Charge yr Pikes!: the baggage train, three parks of wagons (as at Edgehill), a tertia of its own."""

SMOKE_SIZES = (4, 8)
SMOKE_MAX_ACTIONS = 150
WARMUP_ACTIONS = 40


# --- the generated battle ---------------------------------------------------------------


def army_mix(units: int) -> dict[str, int]:
    """Units of each type in an army of ``units``: a gun per eight (at least one), a
    dragoon regiment per twelve (one from eight), a third horse, the rest (about half) foot."""
    guns = max(1, units // 8)
    dragoons = units // 12 if units >= 12 else (1 if units >= 8 else 0)
    horse = max(1, round(units / 3))
    return {"foot": units - guns - dragoons - horse, "horse": horse, "dragoons": dragoons, "artillery": guns}


@dataclass
class Body:
    """Units standing together (a command, a tertia, a battery), in ``rows`` ranks, with
    the commanders who stand among them (behind the front half of the ranks)."""

    units: list[dict[str, Any]]
    rows: int = 1
    commanders: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Army:
    """One side's bodies, from its own left to its own right, and the pieces behind them."""

    side: str
    bodies: list[Body]
    rear: list[dict[str, Any]] = field(default_factory=list)


def _halves(items: list[str]) -> tuple[list[str], list[str]]:
    cut = (len(items) + 1) // 2
    return items[:cut], items[cut:]


def _groups(items: list[str], low: int = 3, high: int = 5) -> list[list[str]]:
    """``items`` in groups of ``low`` to ``high`` (four where it can), in order."""
    n = len(items)
    k = min(max(round(n / 4), math.ceil(n / high)), max(1, n // low))
    out, start = [], 0
    for i in range(k):
        size = n // k + (1 if i < n % k else 0)
        out.append(items[start:start + size])
        start += size
    return out


def _rows(count: int, columns: int) -> int:
    return max(1, math.ceil(count / columns))


def _unit(side: str, uid: str, kind: str, command: str, name: str) -> dict[str, Any]:
    return {"id": uid, "name": name, "side": side, "type": kind, "command": command, "x": 0.0, "y": 0.0}


def _commander(side: str, cid: str, command: str, name: str, *, general: bool = False) -> dict[str, Any]:
    piece: dict[str, Any] = {"id": cid, "name": name, "side": side, "command": command, "x": 0.0, "y": 0.0}
    if general:
        piece["general"] = True
    return piece


def _ids(side: str, units: int) -> dict[str, list[str]]:
    return {kind: [f"{side[0]}-{kind}-{i + 1}" for i in range(n)] for kind, n in army_mix(units).items()}


def _commanded_army(rules: str, side: str, units: int) -> Army:
    """larger-battles, d3 and Declare Thee Sir: dragoons on both flanks, a wing of horse on
    each, the guns beside the foot, the foot in the centre (and, when many, the reserve
    beside it); under larger-battles and Declare Thee Sir each command has its commander,
    under d3 (a single commander an army) the general alone."""
    ids = _ids(side, units)
    columns = LB_MAX_COLUMNS if rules == "larger-battles" else MAX_COLUMNS
    led = rules in ("larger-battles", "declare-thee-sir")
    foot = ids["foot"]
    centre, reserve = _halves(foot) if len(foot) > columns else (foot, [])
    left_horse, right_horse = _halves(ids["horse"])
    left_dragoons, right_dragoons = _halves(ids["dragoons"])
    left_guns, right_guns = _halves(ids["artillery"])
    plan = [(left_dragoons, "dragoons", "dragoons"), (left_horse, "horse", "left"),
            (left_guns, "artillery", "artillery"), (centre, "foot", "centre"), (reserve, "foot", "reserve"),
            (right_guns, "artillery", "artillery"), (right_horse, "horse", "right"),
            (right_dragoons, "dragoons", "dragoons")]
    bodies = []
    for members, kind, command in plan:
        if not members:
            continue
        body = Body([_unit(side, uid, kind, command, f"{kind} {uid}") for uid in members],
                    rows=_rows(len(members), columns))
        if led and kind in ("foot", "horse"):
            body.commanders.append(_commander(side, f"{side[0]}-{command}-commander", command,
                                              f"commander of the {command}"))
        bodies.append(body)
    general = _commander(side, f"{side[0]}-general", "independent" if rules != "declare-thee-sir" else "army",
                         f"{side} general", general=True)
    return Army(side, bodies, [general])


def _pikes_army(side: str, units: int) -> tuple[Army, list[dict[str, Any]]]:
    """Charge yr Pikes!: tertias of three to five regiments (the foot; each wing's horse
    with its dragoons; a wing too small for a tertia joins the foot), in two lines from
    four regiments, a brigadier to each, a wing commander with the first tertia of each
    wing commanding the rest, the train in two batteries beside the foot, the general and
    the baggage train (three parks) behind. Returns the army and its officers' ranks."""
    ids = _ids(side, units)
    left_horse, right_horse = _halves(ids["horse"])
    left_dragoons, right_dragoons = _halves(ids["dragoons"])
    kinds = {uid: kind for kind, members in ids.items() for uid in members}
    wings: list[list[str]] = [left_dragoons + left_horse, ids["foot"], right_horse + right_dragoons]
    while any(0 < len(w) < 3 for w in wings):
        small = next(i for i, w in enumerate(wings) if 0 < len(w) < 3)
        into = 1 if small != 1 else max((0, 2), key=lambda i: len(wings[i]))
        wings[into] = [*wings[small], *wings[into]] if small < into else [*wings[into], *wings[small]]
        wings[small] = []
    left_guns, right_guns = _halves(ids["artillery"])
    train = f"{side[0]}-train"

    def battery(guns: list[str]) -> Body:
        return Body([_unit(side, uid, "artillery", train, f"battery {uid}") for uid in guns])

    bodies: list[Body] = []
    officers: list[dict[str, Any]] = []
    number = 0
    for w, members in enumerate(wings):
        if w == 1 and left_guns:
            bodies.append(battery(left_guns))
        if not members:
            continue
        tertias = _groups(members)
        names = [f"{side[0]}-tertia-{number + i + 1}" for i in range(len(tertias))]
        number += len(tertias)
        for i, (group, name) in enumerate(zip(tertias, names, strict=True)):
            body = Body([_unit(side, uid, kinds[uid], name, f"{kinds[uid]} {uid}") for uid in group],
                        rows=1 if len(group) < 4 else 2)
            brigadier = _commander(side, f"{name}-brigadier", name, f"brigadier of {name}")
            body.commanders.append(brigadier)
            officers.append({"commander": brigadier["id"], "rank": "brigadier"})
            if i == 0:
                wing = _commander(side, f"{side[0]}-wing-{w + 1}", name, f"commander of wing {w + 1}")
                body.commanders.append(wing)
                officers.append({"commander": wing["id"], "rank": "wing", "commands": names[1:]})
            bodies.append(body)
        if w == 1 and right_guns:
            bodies.append(battery(right_guns))
    general = _commander(side, f"{side[0]}-general", f"{side[0]}-army", f"{side} general", general=True)
    officers.insert(0, {"commander": general["id"], "rank": "army"})
    baggage = [_unit(side, f"{side[0]}-baggage-{i + 1}", "artillery", f"{side[0]}-baggage",
                     f"the baggage train (park {i + 1})") for i in range(BAGGAGE_PARKS)]
    return Army(side, bodies, [general, *baggage]), officers


@dataclass(frozen=True)
class Sized:
    """A piece's frontage and depth under the rule set."""

    width: float
    depth: float


def _sizes(rules: str, document: dict[str, Any]) -> dict[str, Sized]:
    """Each piece's base as the rule set sizes it (its stands, formation, scale)."""
    ruleset = get_ruleset(rules)
    scenario = Scenario.model_validate(document)
    out: dict[str, Sized] = {}
    for c in scenario.commanders:
        out[c.id] = Sized(*ruleset.piece_size(scenario, c.id, UnitKind.COMMANDER))
    for u in scenario.units:
        out[u.id] = Sized(*ruleset.piece_size(scenario, u.id, UnitKind(u.type)))
    return out


def _body_shape(body: Body, size: Mapping[str, Sized]) -> tuple[float, float]:
    """(width, depth) of a body laid out in its ranks with its commanders' row."""
    columns = math.ceil(len(body.units) / body.rows)
    pitch = max(size[u["id"]].width for u in body.units) + UNIT_GAP
    rank = max(size[u["id"]].depth for u in body.units) + ROW_GAP
    width = max(columns * pitch - UNIT_GAP, sum(size[c["id"]].width + UNIT_GAP for c in body.commanders))
    command_row = max((size[c["id"]].depth + ROW_GAP for c in body.commanders), default=0.0)
    depth = body.rows * rank + command_row
    return width, depth


def _place_body(body: Body, size: Mapping[str, Sized], left: float, front: float, back: float,
                facing: float) -> None:
    """Place a body's pieces: ``left`` is its smallest x, ``front`` the y of its front
    edge, ``back`` +1 or -1 the direction of its own table edge."""
    width, _ = _body_shape(body, size)
    columns = math.ceil(len(body.units) / body.rows)
    pitch = max(size[u["id"]].width for u in body.units) + UNIT_GAP
    rank = max(size[u["id"]].depth for u in body.units) + ROW_GAP
    command_row = max((size[c["id"]].depth for c in body.commanders), default=0.0) + ROW_GAP
    before = math.ceil(body.rows / 2) if body.rows > 1 else 1
    for r in range(body.rows):
        row = body.units[r * columns:(r + 1) * columns]
        span = len(row) * pitch - UNIT_GAP
        offset = r * rank + (command_row if body.commanders and r >= before else 0.0)
        for i, piece in enumerate(row):
            piece["x"] = round(left + (width - span) / 2 + i * pitch + (pitch - UNIT_GAP) / 2, 3)
            piece["y"] = round(front + back * (offset + size[piece["id"]].depth / 2), 3)
            piece["facing"] = facing
    if body.commanders:
        span = sum(size[c["id"]].width + UNIT_GAP for c in body.commanders) - UNIT_GAP
        x = left + (width - span) / 2
        for piece in body.commanders:
            piece["x"] = round(x + size[piece["id"]].width / 2, 3)
            piece["y"] = round(front + back * (before * rank + command_row / 2), 3)
            piece["facing"] = facing
            x += size[piece["id"]].width + UNIT_GAP


def _lay_out(rules: str, armies: list[Army], document: dict[str, Any], template_width: float,
             depth: float, edges: Mapping[str, str]) -> float:
    """Place every piece, widening the table for the longest line; returns the width."""
    size = _sizes(rules, document)
    lengths = [sum(_body_shape(b, size)[0] for b in army.bodies) + BODY_GAP * (len(army.bodies) - 1)
               for army in armies]
    width = max(template_width, math.ceil(max(lengths) + 2 * MARGIN))
    standoff = CYP_STANDOFF if rules == "charge-yr-pikes" else STANDOFF
    for army, length in zip(armies, lengths, strict=True):
        south = edges[army.side] == "south"
        back, facing = (-1.0, 0.0) if south else (1.0, 180.0)
        front = depth / 2 + back * standoff
        left = (width - length) / 2
        bodies = army.bodies if south else army.bodies[::-1]  # a north army's left is in the east
        deepest = 0.0
        for body in bodies:
            body_width, body_depth = _body_shape(body, size)
            _place_body(body, size, left, front, back, facing)
            left += body_width + BODY_GAP
            deepest = max(deepest, body_depth)
        x = width / 2
        for piece in army.rear:
            piece["x"] = round(x, 3)
            piece["y"] = round(front + back * (deepest + 1.0 + size[piece["id"]].depth / 2), 3)
            piece["facing"] = facing
            x += size[piece["id"]].width + UNIT_GAP
    return width


def _extension(rules: str, armies: list[Army], officers: list[dict[str, Any]], width: float, depth: float,
               edges: Mapping[str, str], template: Mapping[str, Any]) -> dict[str, Any]:
    """The rule set's own table for the generated battle."""
    own = {k: v for k, v in template.get("extensions", {}).get(rules, {}).items() if k in TEMPLATE_KEYS}
    units = [u for army in armies for body in army.bodies for u in body.units]
    if rules == "larger-battles":
        own["supplies"] = [
            {"id": f"{army.side[0]}-supply-{i + 1}", "side": army.side, "x": width * (i + 1) / 4,
             "y": 1.0 if edges[army.side] == "south" else depth - 1.0}
            for army in armies for i in range(3)]
    elif rules == "declare-thee-sir":
        regiments: list[dict[str, Any]] = []
        for n, u in enumerate(units):
            if u["type"] == "foot":
                regiments.append({"unit": u["id"], "stands": 3})
            elif u["type"] == "horse":
                regiments.append({"unit": u["id"], "stands": 3, "firelocks": n % 3 == 0})
            elif u["type"] == "dragoons":
                regiments.append({"unit": u["id"], "mounted": n % 2 == 0})
            else:
                regiments.append({"unit": u["id"]})
        own["regiments"] = regiments
        own["generals"] = [{"commander": c["id"]} for army in armies for c in _commanders(army)]
    elif rules == "charge-yr-pikes":
        troop: dict[str, dict[str, Any]] = {"foot": {"troop": "foot"}, "horse": {"troop": "horse"},
                 "dragoons": {"troop": "dragoons", "mounted": False},
                 "artillery": {"troop": "artillery", "gun": "field"}}
        own["regiments"] = [{"unit": u["id"], **troop[u["type"]]} for u in units] + [
            {"unit": p["id"], "troop": "wagons"} for army in armies for p in army.rear if "type" in p]
        own["officers"] = officers
        own["points"] = _points(armies, width, depth, edges)
    return own


def _commanders(army: Army) -> list[dict[str, Any]]:
    return [*(c for body in army.bodies for c in body.commanders), *(p for p in army.rear if "type" not in p)]


def _points(armies: list[Army], width: float, depth: float, edges: Mapping[str, str]) -> list[dict[str, Any]]:
    """Charge yr Pikes! section 19: each side's three vital points (its baggage, its line of
    retreat off its own edge, the ground behind its left) and, as its objectives, the enemy's."""
    vital: dict[str, list[dict[str, Any]]] = {}
    for army in armies:
        south = edges[army.side] == "south"
        parks = [p for p in army.rear if "type" in p]
        baggage = parks[len(parks) // 2]
        vital[army.side] = [
            {"kind": "vital", "role": "baggage", "name": f"the {army.side} baggage",
             "x": baggage["x"], "y": baggage["y"]},
            {"kind": "vital", "role": "retreat", "name": f"the road behind the {army.side} army",
             "x": width / 2, "y": 0.5 if south else depth - 0.5},
            {"kind": "vital", "name": f"the ground behind the {army.side} left",
             "x": width / 4 if south else 3 * width / 4, "y": 3.0 if south else depth - 3.0},
        ]
    out: list[dict[str, Any]] = []
    for army in armies:
        out.extend({"side": army.side, **p} for p in vital[army.side])
    for army in armies:
        enemy = next(a.side for a in armies if a.side != army.side)
        out.extend({"side": army.side, "kind": "objective", "name": p["name"], "x": p["x"], "y": p["y"]}
                   for p in vital[enemy])
    return out


def generated_document(rules: str, units_a_side: int, seed: int = 1) -> dict[str, Any]:
    """The generated battle as a scenario file's tables (see the module's docstring).
    ``seed`` only names it: the layout is the same for every seed."""
    if units_a_side < 4:
        raise ValueError("an army needs at least 4 units")
    path = Path(tertia.scenarios.__file__).parent / f"{TEMPLATE}.toml"
    template = tomllib.loads(path.read_text(encoding="utf-8"))
    sides = [{k: s[k] for k in ("id", "name", "edge") if k in s} for s in template["sides"]]
    edges = {s["id"]: s["edge"] for s in sides}
    depth = float(template["table"]["depth"])
    officers: list[dict[str, Any]] = []
    armies = []
    for s in sides:
        if rules == "charge-yr-pikes":
            army, ranks = _pikes_army(s["id"], units_a_side)
            officers.extend(ranks)
        else:
            army = _commanded_army(rules, s["id"], units_a_side)
        armies.append(army)
    document: dict[str, Any] = {
        "name": f"{units_a_side} units a side under {rules} (generated from {TEMPLATE}, seed {seed})",
        "rules": [rules],
        "turns": template.get("turns", 12),
        "table": {"width": float(template["table"]["width"]), "depth": depth},
        "sides": sides,
        "commanders": [c for army in armies for c in _commanders(army)],
        "units": [*(u for army in armies for body in army.bodies for u in body.units),
                  *(p for army in armies for p in army.rear if "type" in p)],
    }
    own = _extension(rules, armies, officers, document["table"]["width"], depth, edges, template)
    if own:
        document["extensions"] = {rules: own}
    width = _lay_out(rules, armies, document, document["table"]["width"], depth, edges)
    document["table"]["width"] = float(width)
    if own:  # the table's own places follow the width
        document["extensions"] = {rules: _extension(rules, armies, officers, width, depth, edges, template)}
    return document


def generated_scenario(rules: str, units_a_side: int, seed: int = 1) -> Scenario:
    """The generated battle, written as TOML and loaded (and checked) as rule set ``rules``
    loads a scenario file; raises ``ScenarioError`` listing what is wrong with it."""
    text = toml_text(generated_document(rules, units_a_side, seed))
    return load_scenario(text, source_name=f"<{units_a_side} a side, {rules}>", rules_id=rules)


# --- TOML ----------------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(name: str) -> str:
    return name if _BARE.match(name) else json.dumps(name)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value}")
        return repr(round(value, 4))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"no TOML for {type(value).__name__}")


def _is_array_of_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _is_table(value: Any) -> bool:
    return (isinstance(value, Mapping) and bool(value)) or _is_array_of_tables(value)


def _emit(path: Sequence[str], table: Mapping[str, Any], out: list[str]) -> None:
    later: list[tuple[str, Any]] = []
    for k, v in table.items():
        if _is_table(v):
            later.append((k, v))
        else:
            out.append(f"{_key(k)} = {_value(v)}")
    for k, v in later:
        here = [*path, _key(k)]
        if isinstance(v, Mapping):
            if any(not _is_table(x) for x in v.values()):  # a table of tables needs no header
                out.extend(("", f"[{'.'.join(here)}]"))
            _emit(here, v, out)
        else:
            for item in v:
                out.extend(("", f"[[{'.'.join(here)}]]"))
                _emit(here, item, out)


def toml_text(document: Mapping[str, Any]) -> str:
    """A scenario's tables as TOML text (scalars, lists, tables and arrays of tables)."""
    out: list[str] = []
    _emit([], document, out)
    return "\n".join(out) + "\n"


# --- the measurement -------------------------------------------------------------------------


@dataclass
class Battle:
    actions: int
    cpu: float
    ended: bool
    error: str | None = None


def fight(game: Game, seed: int, max_actions: int, player: str = DEFAULT_PLAYER) -> Battle:
    """One battle of ``player`` (a name of ``tertia players``) against itself, timed in CPU
    seconds; a battle stopped at ``max_actions`` or by an error keeps the actions it played."""
    players = {side: make_player(player) for side in game.scenario.side_ids}
    played = 0

    def count(_: Step) -> None:
        nonlocal played
        played += 1

    error: str | None = None
    ended = False
    start = time.process_time()
    try:
        fight_battle(game, players, seed, on_step=count, max_actions=max_actions)
        ended = True
    except BattleAborted as exc:
        if "did not end" not in str(exc):
            error = f"BattleAborted: {exc}"
    except Exception as exc:  # an engine or AI failure on a big army is a finding, not a crash
        error = f"{type(exc).__name__}: {exc}"
    cpu = time.process_time() - start
    return Battle(played, cpu, ended, error)


@dataclass
class SizeResult:
    units: int
    battles: list[Battle]

    @property
    def actions(self) -> int:
        return sum(b.actions for b in self.battles)

    @property
    def ms_per_action(self) -> float | None:
        return 1000.0 * sum(b.cpu for b in self.battles) / self.actions if self.actions else None

    @property
    def actions_per_battle(self) -> float:
        return self.actions / len(self.battles) if self.battles else 0.0


def ratio(results: Sequence[SizeResult]) -> tuple[int, int, float] | None:
    """(largest size, base size, ms per action at the largest over that at the base)."""
    timed = [r for r in results if r.ms_per_action]
    if len(timed) < 2:
        return None
    base = next((r for r in timed if r.units == BASE_SIZE), timed[0])
    top = max(timed, key=lambda r: r.units)
    if top is base or base.ms_per_action is None or top.ms_per_action is None:
        return None
    return top.units, base.units, top.ms_per_action / base.ms_per_action


def measure(rules: str, sizes: Sequence[int], games: int, seed: int, max_actions: int,
            warmup: int, player: str = DEFAULT_PLAYER) -> list[SizeResult]:
    results = []
    if warmup:  # imports, caches and the doctrine's first look, outside the figures
        fight(Game(get_ruleset(rules), generated_scenario(rules, min(sizes), seed)), seed, warmup, player)
    for n in sizes:
        game = Game(get_ruleset(rules), generated_scenario(rules, n, seed))
        battles = [fight(game, seed + i, max_actions, player) for i in range(games)]
        result = SizeResult(n, battles)
        results.append(result)
        ms = result.ms_per_action
        shown = f"{ms:7.2f} ms per action" if ms is not None else "     no actions"
        marks = "".join(
            f"  [seed {seed + i}: stopped at {b.actions} actions]" if not b.ended and b.error is None else
            f"  [seed {seed + i}: {b.error}]" if b.error else ""
            for i, b in enumerate(battles))
        print(f"{rules:17s} N={n:3d}: {shown}, {result.actions_per_battle:7.0f} actions per battle "
              f"({len(battles)} battle{'s' if len(battles) != 1 else ''}){marks}", flush=True)
    found = ratio(results)
    if found is not None:
        top, base, r = found
        verdict = "within" if r <= TARGET_RATIO else "over"
        print(f"{rules:17s} ms per action at {top} over at {base}: {r:.2f}x "
              f"({verdict} the target of {TARGET_RATIO:g}x)", flush=True)
    return results


def _report(results: Mapping[str, list[SizeResult]], args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"games": args.games, "seed": args.seed, "max_actions": args.max_actions,
                           "player": args.player,
                           "template": TEMPLATE, "rules": {}}
    for rules, sized in results.items():
        found = ratio(sized)
        out["rules"][rules] = {
            "sizes": {str(r.units): {
                "ms_per_action": r.ms_per_action, "actions_per_battle": r.actions_per_battle,
                "battles": [{"seed": args.seed + i, "actions": b.actions, "cpu_seconds": b.cpu,
                             "ended": b.ended, "error": b.error} for i, b in enumerate(r.battles)],
            } for r in sized},
            "ratio": None if found is None else {"largest": found[0], "base": found[1], "ratio": found[2]},
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", nargs="+", default=None, metavar="ID", help="rule sets (default: all)")
    parser.add_argument("--sizes", nargs="+", type=int, default=[4, 8, 16, 32, 64], metavar="N",
                        help="units a side")
    parser.add_argument("--games", type=int, default=2, help="battles a size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default=DEFAULT_PLAYER, metavar="NAME",
                        help="the player of both sides (`tertia players`; default: the doctrine)")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help="stop a battle after this many actions (it still counts)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the numbers here")
    parser.add_argument("--smoke", action="store_true",
                        help="sizes 4 and 8, one game capped at a few actions: the script still works")
    parser.add_argument("--show", default=None, metavar="RULES:N",
                        help="print the generated scenario for rule set RULES, N units a side, and stop")
    args = parser.parse_args(argv)
    known = ruleset_ids()
    if args.show:
        rules, _, n = args.show.partition(":")
        text = toml_text(generated_document(rules, int(n or 8), args.seed))
        load_scenario(text, source_name=args.show, rules_id=rules)  # refuses a battle the loader refuses
        print(text, end="")
        return 0
    if args.smoke:
        args.sizes, args.games = list(SMOKE_SIZES), 1
        args.max_actions = min(args.max_actions, SMOKE_MAX_ACTIONS)
    try:
        entry(args.player)
    except UnknownPlayer as exc:
        parser.error(f"--player: {exc}")
    rules_list = args.rules or list(known)
    unknown = [r for r in rules_list if r not in known]
    if unknown:
        parser.error(f"unknown rule set {unknown[0]!r}; known: {', '.join(known)}")
    if min(args.sizes) < 4 or args.games < 1:
        parser.error("sizes are at least 4 units a side, and --games at least 1")
    sizes = sorted(set(args.sizes))
    print(f"CPU ms per action against army size: {args.games} battle{'s' if args.games != 1 else ''} a size, "
          f"seeds from {args.seed}, at most {args.max_actions} actions a battle, "
          f"{args.player} against itself", flush=True)
    started = time.perf_counter()
    results = {rules: measure(rules, sizes, args.games, args.seed, args.max_actions,
                              0 if args.smoke else WARMUP_ACTIONS, args.player)
               for rules in rules_list}
    failed = sum(1 for sized in results.values() for r in sized for b in r.battles if b.error)
    print(f"done in {time.perf_counter() - started:.1f} s" + (f"; {failed} battles failed" if failed else ""))
    if args.json is not None:
        args.json.write_text(json.dumps(_report(results, args), indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
