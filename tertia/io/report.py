"""A battle report: one self-contained HTML file with the result, a map per game turn
and the narrative of every turn.

The report is built from what a game leaves behind: the position as deployed, the
events of the opening, and each step as (action, events, state after). Events are
grouped by game turn; each turn gets a map of the position at its end with that turn's
movement traced on it, beside the narrative of both player turns. The file has inline
CSS and a few lines of script for keyboard navigation, and loads nothing from anywhere.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import tertia
from tertia.core import events as ev
from tertia.core.narration import command_role, default_side_name, humanise, without_aside
from tertia.core.presentation import PieceCard, Presentation, kind_words
from tertia.core.reducer import reduce
from tertia.core.scenario import DRAWN_UP
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.io.files import write_text
from tertia.io.narrative import SILENT_EVENTS, NarrativeLine, Narrator, headed_first
from tertia.io.safe_narration import tell_safely
from tertia.io.svg import SIDE_COLOURS, Trace, render_map

if TYPE_CHECKING:
    from tertia.battle import BattleRecord


class StepLike(Protocol):
    """Anything with the events of one action and the state after them."""

    @property
    def events(self) -> Sequence[ev.Event]: ...

    @property
    def state(self) -> GameState: ...


Step = StepLike | tuple[Any, Sequence[ev.Event], GameState]
"""A step: an object with ``events`` and ``state``, or an (action, events, state) tuple."""


@dataclass
class PlayerTurn:
    """The narrative of one player turn (``side`` is ``None`` for the opening)."""

    side: str | None
    events: list[ev.Event] = field(default_factory=list)
    lines: list[NarrativeLine] = field(default_factory=list)


@dataclass
class TurnSnapshot:
    """One game turn (``turn`` 0 is the deployment and opening): the position at its end,
    the movement made during it and what happened, player turn by player turn."""

    turn: int
    state: GameState
    traces: list[Trace] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    player_turns: list[PlayerTurn] = field(default_factory=list)


def _step_parts(step: Step) -> tuple[Sequence[ev.Event], GameState]:
    if isinstance(step, tuple):
        return step[1], step[2]
    return step.events, step.state


def _safe_reduce(state: GameState, event: ev.Event) -> GameState:
    with contextlib.suppress(KeyError, IndexError, TypeError, ValueError):
        return reduce(state, event)
    return state


def _die_at_the_end(turn: TurnSnapshot, step_began: tuple[PlayerTurn | None, int]) -> list[ev.Event]:
    """The die that closes ``turn``'s last player turn (with the bookkeeping after it),
    taken from it: rolled in the step that begins the next for what begins it (the card
    drawn), it is told there. ``step_began`` is where that step's events began (the
    player turn then under way and how many events it held): a die rolled before it is
    the last player turn's own."""
    if not turn.player_turns:
        return []
    last = turn.player_turns[-1]
    events = last.events
    at = len(events)
    while at and events[at - 1].type in SILENT_EVENTS:
        at -= 1
    began_in, began_at = step_began
    if not at or not isinstance(events[at - 1], ev.DiceRolled) or (last is began_in and at - 1 < began_at):
        return []
    drawn, events[at - 1:] = events[at - 1:], []
    return drawn


def collect_turns(
    initial_state: GameState,
    steps: Iterable[Step],
    *,
    start_events: Sequence[ev.Event] = (),
    side_names: Mapping[str, str] | None = None,
    notes: Mapping[int, str] | None = None,
    presentation: Presentation | None = None,
) -> list[TurnSnapshot]:
    """Split a game into game turns: the deployment (turn 0, with the opening's events)
    and one snapshot at the end of each game turn, with its traces and narrative.

    ``initial_state`` is the position as deployed, before ``start_events``. A new game
    turn starts at the first ``TurnBegan`` carrying a new turn number; the snapshot is
    the state just before it. The last turn ends with the last step. The die rolled just
    before a ``TurnBegan``, in the same step, is told in the player turn it begins (the
    card it draws).
    """
    state = initial_state
    turns = [TurnSnapshot(0, initial_state, player_turns=[PlayerTurn(None)])]
    stream: list[tuple[Sequence[ev.Event], GameState | None]] = [(start_events, None)]
    stream.extend((events, after) for events, after in map(_step_parts, steps))
    opening = initial_state
    opens_turn = presentation.opens_turn if presentation is not None else None
    for index, (events, after) in enumerate(stream):
        under_way = turns[-1].player_turns[-1] if turns[-1].player_turns else None
        step_began = (under_way, len(under_way.events) if under_way is not None else 0)
        # a turn whose play begins before it is announced (its deck gathered) is headed first,
        # and what its opening draws is told under it, not at the end of the turn before
        opened = opens_turn is not None and any(opens_turn(e) for e in events)
        for e in headed_first(events, opens_turn) if opens_turn is not None else events:
            current = turns[-1]
            if isinstance(e, ev.TurnBegan):
                drawn = [] if opened and e.turn != current.turn else _die_at_the_end(current, step_began)
                if e.turn != current.turn:
                    current.state = state
                    current = TurnSnapshot(e.turn, state)
                    turns.append(current)
                current.player_turns.append(PlayerTurn(e.side, drawn))
            elif not current.player_turns:
                current.player_turns.append(PlayerTurn(None))
            current.player_turns[-1].events.append(e)
            if isinstance(e, ev.UnitMoved) and len(e.path) >= 2:
                current.traces.append((e.unit, [(float(p[0]), float(p[1])) for p in e.path]))
            elif isinstance(e, ev.UnitRemoved):
                current.removed.append(e.unit)
            state = _safe_reduce(state, e)
        if after is not None:
            state = after
        if index == 0:
            opening = state
    turns[-1].state = state
    if len(turns) > 1 or turns[0].player_turns[0].events:
        turns[0].state = opening if len(turns) > 1 else state  # the armies once the opening is done

    narrator = (Narrator(initial_state, side_names=side_names, notes=notes) if presentation is None else
                Narrator.for_rules(presentation.ruleset, initial_state, side_names=side_names, notes=notes))
    for t in turns:
        for pt in t.player_turns:
            pt.lines = [
                line for line in tell_safely(narrator, pt.events)
                if not isinstance(line.event, ev.TurnBegan)
            ]
    return turns


# --- HTML --------------------------------------------------------------------------------


def build_report_html(
    *,
    title: str,
    table: Battlefield,
    initial_state: GameState,
    steps: Iterable[Step],
    start_events: Sequence[ev.Event] = (),
    side_names: Mapping[str, str] | None = None,
    side_colours: Mapping[str, str] | None = None,
    ruleset: str = "",
    seed: int | None = None,
    description: str = "",
    drawn_up: str = "",
    details: Mapping[str, str] | None = None,
    scale: float = 12.0,
    notes: Mapping[int, str] | None = None,
    presentation: Presentation | None = None,
) -> str:
    """The whole report as one HTML document.

    ``initial_state`` is the position as deployed; ``start_events`` the events of the
    opening (who moves first); ``steps`` each action's events and the state after them,
    in order. ``drawn_up``: how the order of battle is drawn up (the scenario's notes, as
    the rule set played has them). ``details`` adds rows to the header (players, options ...).
    ``presentation`` is the rule set's: what each piece shows on the maps and in the
    order of battle, and its names for commands.
    """
    names = {s: (side_names or {}).get(s) or default_side_name(s) for s in initial_state.sides}
    colours = {s: SIDE_COLOURS[i] for i, s in enumerate(initial_state.sides)}
    colours.update(side_colours or {})
    turns = collect_turns(initial_state, steps, start_events=start_events, side_names=names, notes=notes,
                          presentation=presentation)
    final = turns[-1].state

    meta: list[tuple[str, str]] = []
    if ruleset:
        meta.append(("Rule set", ruleset))
    if seed is not None:
        meta.append(("Seed", str(seed)))
    played = max(t.turn for t in turns)
    meta.append(("Turns played", str(played)))
    meta.extend((details or {}).items())

    nav = ['<a href="#result">Result</a>', '<a href="#deployment">Deployment</a>']
    nav += [f'<a href="#turn-{t.turn}">Turn {t.turn}</a>' for t in turns if t.turn > 0]

    sections: list[str] = []
    for figure, t in enumerate(turns, start=1):
        sections.append(
            _turn_section(t, table, names, colours, scale, figure, final_turn=t is turns[-1],
                          over=final.is_over, presentation=presentation)
        )

    body = [
        '<header class="masthead">',
        '<p class="kicker">A battle report</p>',
        f"<h1>{escape(title)}</h1>",
    ]
    if description.strip():
        body.append(f'<p class="description">{escape(description.strip())}</p>')
    if drawn_up.strip():
        body.append(f'<p class="description drawn-up"><span class="drawn-up-head">{DRAWN_UP}</span> '
                    f'{escape(drawn_up.strip())}</p>')
    body.append(
        '<dl class="meta">'
        + "".join(_meta_item(k, v) for k, v in meta)
        + "</dl></header>"
    )
    body.append('<nav class="turn-nav" aria-label="Turns">' + "".join(nav) + "</nav>")
    body.append("<main>")
    body.append(_result_section(initial_state, final, turns, names, colours,
                                Shown(table, final, presentation)))
    body.extend(sections)
    body.append("</main>")
    body.append(
        f'<footer>Tertia {escape(tertia.__version__)} · maps are north-up; '
        "grid squares are 6 inches · use ← and → to move between turns</footer>"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} — battle report</title>"
        f"<style>{_css(colours, initial_state.sides)}</style></head>"
        "<body>" + "\n".join(body) + f"<script>{_SCRIPT}</script></body></html>\n"
    )


def write_report(path: str | Path, **kwargs: Any) -> Path:
    """Write :func:`build_report_html` (same keyword arguments) to ``path``."""
    target = Path(path)
    target.write_text(build_report_html(**kwargs), encoding="utf-8")
    return target


def build_report_for(record: BattleRecord, *, scale: float = 12.0,
                     notes: Mapping[int, str] | None = None) -> str:
    """The report of a battle fought with :func:`tertia.battle.fight_battle`; ``notes``
    (by ``id`` of an event, such as :func:`tertia.analysis.odds.odds_notes` gives) are told
    beside the events they name."""
    game = record.game
    scenario = game.scenario
    names = scenario.side_names()
    rules = game.ruleset.describe()
    details: dict[str, str] = {}
    if record.players:
        details["Players"] = ", ".join(
            f"{names.get(s) or default_side_name(s)}: {p}" for s, p in record.players.items()
        )
    if rules.get("options"):
        details["Options"] = "; ".join(options_changed(rules)) or "the rule set's defaults"
    return build_report_html(
        title=scenario.name,
        table=game.table,
        initial_state=record.deployed,
        steps=record.steps,
        start_events=record.start_events,
        side_names=names,
        ruleset=f"{rules['title']}, version {rules['version']}",
        seed=record.seed,
        description=scenario.description,
        drawn_up=scenario.notes,
        details=details,
        scale=scale,
        notes=notes,
        presentation=game.ruleset.presentation(),
    )


def options_changed(rules: Mapping[str, Any]) -> list[str]:
    """The options a rule set (as :meth:`~tertia.core.ruleset.RuleSet.describe` gives it)
    is played with, in words ("hit limit infantry: 4"); those left at their defaults go
    unnamed."""
    return [f"{humanise(o['name'])}: {humanise(_value(o['value']))}"
            for o in rules.get("options", []) if o["value"] != o["default"]]


def write_report_for(record: BattleRecord, path: str | Path, *, scale: float = 12.0,
                     notes: Mapping[int, str] | None = None) -> Path:
    """Write :func:`build_report_for` to ``path``."""
    target = Path(path)
    write_text(target, build_report_for(record, scale=scale, notes=notes))
    return target


def _meta_item(key: str, value: str) -> str:
    """A header entry; long values (options lists) take a full, smaller line."""
    css = ' class="wide"' if len(value) > 60 else ""
    return f"<div{css}><dt>{escape(key)}</dt><dd>{escape(value)}</dd></div>"


# --- sections ----------------------------------------------------------------------------


def _turn_section(
    t: TurnSnapshot,
    table: Battlefield,
    names: Mapping[str, str],
    colours: Mapping[str, str],
    scale: float,
    figure: int,
    *,
    final_turn: bool,
    over: bool,
    presentation: Presentation | None = None,
) -> str:
    if t.turn == 0:
        anchor, heading = "deployment", "Deployment"
        caption, when = "The armies as deployed.", "deployment"
    else:
        anchor, heading = f"turn-{t.turn}", f"Turn {t.turn}"
        when = "the end of the battle" if final_turn and over else f"the end of turn {t.turn}"
        caption = f"Positions at {when}."
        if t.traces:
            caption += " Dashed lines trace this turn's movement."
        if t.removed:
            caption += " Units lost this turn are shown faded and crossed."
    svg = render_map(
        table, t.state, side_names=names, traces=t.traces if t.turn else (), scale=scale,
        side_colours=colours, show_removed=set(t.removed), map_id=f"m{t.turn}",
        title=f"{heading}: {caption}", standalone=False,
        pieces=presentation.pieces(table, t.state, None) if presentation is not None else None,
        points=_points_of(presentation, t.state),
    )
    story = _narrative(t, names, shared=presentation is not None and presentation.SHARED_TURNS)
    story += _standing(presentation.standing(t.state, names) if presentation is not None else (), when)
    return (
        f'<section class="turn" id="{anchor}">'
        f'<h2><span class="turn-no">{escape(heading)}</span></h2>'
        '<div class="turn-body">'
        f'<figure class="map">{svg}<figcaption><span class="fig">Figure {figure}.</span> '
        f"{escape(caption)}</figcaption></figure>"
        f'<div class="narrative">{story}</div>'
        "</div></section>"
    )


def _standing(lines: Sequence[str], when: str) -> str:
    """Where each side stands against the rule set's other victory at ``when`` (its
    :meth:`~tertia.core.presentation.Presentation.standing`), under the turn's story."""
    if not lines:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return (f'<div class="standing"><p class="standing-title">Where each side stands at {escape(when)}</p>'
            f"<ul>{items}</ul></div>")


def _points_of(presentation: Presentation | None, state: GameState) -> list[dict[str, Any]]:
    """The rule set's objectives and vital points in ``state`` (its summary's ``points``),
    for the map; none for a rule set that keeps none."""
    listed = presentation.summary(state).get("points") if presentation is not None else None
    return listed if isinstance(listed, list) else []


def _narrative(t: TurnSnapshot, names: Mapping[str, str], *, shared: bool = False) -> str:
    """A game turn's story, player turn by player turn, each under its heading
    (:func:`_block_heading`; none where both sides play in the turn, ``shared``, and it
    opens on nothing that names a side's card)."""
    parts: list[str] = []
    for pt in t.player_turns:
        if not pt.lines and pt.side is None:
            continue
        heading: str | None
        if pt.side is None:
            heading, lines, css = "Before the battle", pt.lines, "opening"
        else:
            heading, lines = _block_heading(pt, names.get(pt.side, pt.side), shared=shared)
            css = f"side-{_side_index(t.state, pt.side)}" if heading is not None else "shared"
        items = "".join(
            f'<li class="{escape(line.kind)}">{escape(line.text)}</li>' for line in lines
        )
        if not items:
            items = '<li class="note">Nothing of note.</li>'
        title = f"<h3>{escape(heading)}</h3>" if heading is not None else ""
        parts.append(f'<div class="player-turn {css}">{title}<ol>{items}</ol></div>')
    if not parts:
        parts.append('<p class="quiet">The armies stand ready.</p>')
    return "".join(parts)


def _block_heading(pt: PlayerTurn, side_name: str, *, shared: bool) -> tuple[str | None, list[NarrativeLine]]:
    """A player turn's heading and the lines under it: where the turn opens (past its
    dice, its phase and any card turned idle before its own) on a line naming the side's
    card ("Royalists: the centre card", "Parliament's dragoons card drawn"), that line;
    else the side's name, or none where both sides play in the turn (``shared``)."""
    plain = without_aside(side_name)
    for at, line in enumerate(pt.lines):
        if line.kind in ("dice", "phase") or getattr(line.event, "idle", False):
            continue  # a card turned idle before the side's own opens nothing of its turn
        if line.kind in ("heading", "card", "note") and re.match(rf"{re.escape(plain)}[ :']", line.text):
            return line.text, [*pt.lines[:at], *pt.lines[at + 1:]]
        break
    return (None if shared else side_name), pt.lines


def _side_index(state: GameState, side: str) -> int:
    return state.sides.index(side) if side in state.sides else 2


def _result_section(
    initial: GameState,
    final: GameState,
    turns: Sequence[TurnSnapshot],
    names: Mapping[str, str],
    colours: Mapping[str, str],
    shown: Shown,
) -> str:
    result = final.result
    removal_turn: dict[str, int] = {}
    for t in turns:
        for uid in t.removed:
            removal_turn.setdefault(uid, t.turn)

    if result is None:
        banner = "The battle was not finished"
        sub = f"Play stopped in turn {final.turn}."
    else:
        winner = result.get("winner")
        banner = f"Victory to {names.get(winner, winner)}" if winner else "A drawn battle"
        reason = str(result.get("reason", "") or "")
        sub = f"The battle ended after turn {final.turn}" + (f": {reason}." if reason else ".")
    scores: Mapping[str, Any] = (result or {}).get("score", {}) or {}
    breakdown: Mapping[str, Any] = (result or {}).get("breakdown", {}) or {}

    items: list[str] = []
    for side in final.sides:
        side_items = breakdown.get(side)
        if isinstance(side_items, Mapping):
            for k in side_items:
                if k not in items:
                    items.append(str(k))
    extras = [
        k for k, v in breakdown.items()
        if k not in final.sides and k != "units_lost" and isinstance(v, Mapping)
        and any(s in v for s in final.sides)
    ]

    points_cols = [*(shown.breakdown_label(k) for k in items), *(shown.breakdown_label(k) for k in extras)]
    group_row = (
        '<tr class="group"><th rowspan="2" scope="col">Side</th>'
        '<th rowspan="2" scope="col">Score</th>'
        + (f'<th colspan="{len(points_cols)}" scope="colgroup">{escape(shown.breakdown_title)}</th>'
           if points_cols else "")
        + '<th colspan="2" scope="colgroup">Losses</th></tr>'
    )
    head = [*points_cols, "Troops", "Commanders"]
    rows: list[str] = []
    for i, side in enumerate(final.sides):
        troops = [u for u in final.iter_units(side, include_removed=True) if not u.is_commander]
        commanders = [u for u in final.iter_units(side, include_removed=True) if u.is_commander]
        lost = [u for u in troops if not u.in_play]
        fallen = [u for u in commanders if not u.in_play]
        raw = breakdown.get(side)
        per: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        cells = [
            f'<th scope="row"><span class="swatch side-{i}"></span>{escape(names.get(side, side))}</th>',
            f'<td class="num strong">{escape(str(scores.get(side, "—")))}</td>',
            *(f'<td class="num">{escape(_value(per.get(k, "—")))}</td>' for k in items),
            *(f'<td class="num">{escape(_value(breakdown[k].get(side, "—")))}</td>' for k in extras),
            f'<td class="num">{len(lost)} of {len(troops)}{escape(_why(lost))}</td>',
            f'<td class="num">{len(fallen)} of {len(commanders)}{escape(_why(fallen))}</td>',
        ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    table = (
        '<div class="table-wrap"><table class="scores"><thead>' + group_row + "<tr>"
        + "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
        + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>"
    )
    others = [
        f"<div><dt>{escape(_title(k))}</dt><dd>{escape(_value(v))}</dd></div>"
        for k, v in breakdown.items()
        if k not in final.sides and k not in extras and k != "units_lost"
    ]
    extra = f'<dl class="meta small">{"".join(others)}</dl>' if others else ""
    fates = "".join(
        _order_of_battle(final, side, i, names, removal_turn, shown) for i, side in enumerate(final.sides)
    )
    winner_class = ""
    if result is not None and result.get("winner") in final.sides:
        winner_class = f" side-{final.sides.index(result['winner'])}"
    return (
        '<section class="result" id="result">'
        f'<div class="banner{winner_class}"><p class="verdict">{escape(banner)}</p>'
        f'<p class="reason">{escape(sub)}</p></div>'
        f"{table}{extra}"
        '<h2 class="oob-title">Order of battle and fate</h2>'
        f'<div class="oob">{fates}</div></section>'
    )


def _why(lost: Sequence[Unit]) -> str:
    if not lost:
        return ""
    counts: dict[str, int] = {}
    for u in lost:
        counts[str(u.removed)] = counts.get(str(u.removed), 0) + 1
    return " (" + ", ".join(f"{n} {why}" for why, n in sorted(counts.items())) + ")"


@dataclass(frozen=True)
class Shown:
    """What the rule set shows of a position's pieces (:mod:`tertia.core.presentation`),
    for the order of battle; nothing beyond the pieces themselves without one."""

    table: Battlefield
    state: GameState
    presentation: Presentation | None

    def card(self, unit_id: str) -> PieceCard | None:
        if self.presentation is None:
            return None
        return self.presentation.piece(self.table, self.state, unit_id, None)

    def title(self, unit: Unit) -> str | None:
        return None if self.presentation is None else self.presentation.title(self.state, unit)

    @property
    def breakdown_title(self) -> str:
        """The heading over the result's breakdown by side, as the rule set words it."""
        return (self.presentation or Presentation).BREAKDOWN_TITLE

    def breakdown_label(self, key: str) -> str:
        """An item of the result's breakdown as the rule set words it, else its key in words."""
        return (self.presentation or Presentation).BREAKDOWN_LABELS.get(key) or _title(key)

    def kind(self, unit: Unit) -> str:
        """The piece's kind as the rule set names it."""
        return kind_words(unit) if self.presentation is None else self.presentation.kind_label(unit)

    def command(self, command: str, side: str) -> str:
        """``side``'s command of that name (both sides may have a "left"): the rule set's
        name for it, else what it is, in words (under its side's heading: "Horse" for
        ``r-horse``, :func:`~tertia.core.narration.command_role`)."""
        plain = _title(command_role(command, side))
        if self.presentation is None:
            return plain
        return self.presentation.command_label(self.state, command, side) or plain


def _order_of_battle(
    state: GameState, side: str, index: int, names: Mapping[str, str], removal_turn: Mapping[str, int],
    shown: Shown,
) -> str:
    rows: list[str] = []
    titles = {u.id: shown.title(u) if u.is_commander else None
              for u in state.iter_units(side, include_removed=True)}
    units = sorted(
        state.iter_units(side, include_removed=True),
        key=lambda u: (not u.is_commander, titles[u.id] != "General", u.command, u.id),
    )
    for u in units:
        kind = titles[u.id] or _title(shown.kind(u))
        if u.removed is not None:
            when = removal_turn.get(u.id)
            fate = f"{_title(u.removed)}" + (f", turn {when}" if when else "")
            css = "lost"
        else:
            card = shown.card(u.id)
            fate = "; ".join(["In the field", *(card.lines() if card is not None else [])])
            css = "alive"
        rows.append(
            f'<tr class="{css}"><td>{escape(u.label)}</td><td>{escape(kind)}</td>'
            f"<td>{escape(shown.command(u.command, u.side))}</td><td>{escape(fate)}</td></tr>"
        )
    return (
        f'<div class="oob-side side-{index}"><h3>{escape(names.get(side, side))}</h3>'
        '<div class="table-wrap"><table><thead><tr><th>Unit</th><th>Type</th><th>Command</th>'
        f'<th>Fate</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div></div>'
    )


def _title(key: str) -> str:
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _value(v: Any) -> str:
    if isinstance(v, Mapping):
        return ", ".join(f"{_title(k)}: {_value(x)}" for k, x in v.items())
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


# --- style -------------------------------------------------------------------------------

_SCRIPT = (
    "(function(){var s=Array.prototype.slice.call(document.querySelectorAll('main section'));"
    "document.addEventListener('keydown',function(e){"
    "if(e.altKey||e.ctrlKey||e.metaKey||/INPUT|TEXTAREA/.test(e.target.tagName))return;"
    "var d=e.key==='ArrowRight'?1:e.key==='ArrowLeft'?-1:0;if(!d)return;"
    "var y=window.scrollY+8,i=0;for(var k=0;k<s.length;k++){if(s[k].offsetTop<=y)i=k;}"
    "var n=s[Math.max(0,Math.min(s.length-1,i+d))];if(n){n.scrollIntoView({behavior:'smooth'});"
    "e.preventDefault();}});})();"
)


def _css(colours: Mapping[str, str], sides: Sequence[str]) -> str:
    c0 = colours.get(sides[0], SIDE_COLOURS[0])
    c1 = colours.get(sides[1], SIDE_COLOURS[1]) if len(sides) > 1 else SIDE_COLOURS[1]
    return f"""
:root {{
  --paper: #f4efe1; --paper-deep: #ebe3cc; --ink: #2b2620; --muted: #6b6154;
  --rule: #cdbf9f; --accent: #7a1f1f; --side-0: {c0}; --side-1: {c1}; --side-2: #5b5b5b;
  --serif: Georgia, 'Iowan Old Style', 'Palatino Linotype', Palatino, 'Book Antiqua',
           'DejaVu Serif', serif;
}}
* {{ box-sizing: border-box; }}
html {{ background: var(--paper); }}
body {{ margin: 0 auto; max-width: 1640px; padding: 0 2rem 3rem; color: var(--ink);
  font: 16px/1.55 var(--serif); background: var(--paper); }}
.masthead {{ padding: 2.2rem 0 1rem; border-bottom: 3px double var(--rule); }}
.kicker {{ margin: 0; font-variant: small-caps; letter-spacing: .12em; color: var(--accent); }}
h1 {{ margin: .1rem 0 .4rem; font-size: 2.5rem; font-weight: normal; letter-spacing: .01em; }}
.description {{ max-width: 60rem; margin: 0 0 1rem; font-style: italic; color: var(--muted); }}
.drawn-up-head {{ font-style: normal; font-variant: small-caps; letter-spacing: 0.04em; }}
dl.meta {{ display: flex; flex-wrap: wrap; gap: .4rem 2.2rem; margin: 0; }}
dl.meta div {{ min-width: 8rem; }}
dl.meta dt {{ font-variant: small-caps; letter-spacing: .06em; color: var(--muted);
  font-size: .85rem; }}
dl.meta dd {{ margin: 0; }}
dl.meta div.wide {{ flex-basis: 100%; font-size: .85rem; color: var(--muted); }}
dl.meta.small {{ margin-top: .8rem; font-size: .9rem; }}
.turn-nav {{ position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: .2rem;
  padding: .5rem 0; background: var(--paper); border-bottom: 1px solid var(--rule); }}
.turn-nav a {{ padding: .15rem .6rem; border-radius: 3px; color: var(--ink);
  text-decoration: none; font-variant: small-caps; letter-spacing: .04em; }}
.turn-nav a:hover, .turn-nav a:focus {{ background: var(--paper-deep); color: var(--accent); }}
section {{ padding: 1.6rem 0 1.2rem; border-bottom: 1px solid var(--rule);
  scroll-margin-top: 3rem; }}
h2 {{ margin: 0 0 .9rem; font-weight: normal; font-size: 1.7rem; }}
h2 .turn-no {{ border-bottom: 2px solid var(--accent); padding-bottom: .1rem; }}
h3 {{ margin: 0 0 .35rem; font-size: 1.05rem; font-variant: small-caps; letter-spacing: .06em; }}
.banner {{ border-left: 6px solid var(--muted); padding: .3rem 0 .4rem 1rem; margin-bottom: 1.2rem; }}
.banner.side-0 {{ border-color: var(--side-0); }} .banner.side-1 {{ border-color: var(--side-1); }}
.verdict {{ margin: 0; font-size: 1.9rem; }}
.reason {{ margin: 0; color: var(--muted); font-style: italic; }}
.table-wrap {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: .95rem; }}
table.scores th, table.scores td {{ padding: .35rem .9rem; border-bottom: 1px solid var(--rule);
  text-align: left; }}
table.scores thead th {{ font-weight: normal; font-variant: small-caps; letter-spacing: .04em;
  color: var(--muted); border-bottom: 1px solid var(--rule); vertical-align: bottom; }}
table.scores thead tr:last-child th, table.scores thead th[rowspan] {{
  border-bottom: 2px solid var(--ink); }}
table.scores thead tr.group th[colspan] {{ text-align: center; color: var(--ink); }}
table.scores tbody th {{ white-space: nowrap; }}
td.num {{ font-variant-numeric: tabular-nums; }}
td.strong {{ font-weight: bold; font-size: 1.1rem; }}
.swatch {{ display: inline-block; width: .9em; height: .9em; margin-right: .5em;
  vertical-align: -.05em; border: 1px solid var(--ink); }}
.swatch.side-0 {{ background: var(--side-0); }} .swatch.side-1 {{ background: var(--side-1); }}
.oob-title {{ margin-top: 1.6rem; font-size: 1.3rem; }}
.oob {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1.5rem; }}
.oob-side h3 {{ border-bottom: 3px solid var(--side-2); padding-bottom: .15rem; }}
.oob-side.side-0 h3 {{ border-color: var(--side-0); }}
.oob-side.side-1 h3 {{ border-color: var(--side-1); }}
.oob table {{ width: 100%; font-size: .88rem; }}
.oob th {{ text-align: left; font-weight: normal; color: var(--muted); font-variant: small-caps; }}
.oob td, .oob th {{ padding: .15rem .5rem .15rem 0; border-bottom: 1px dotted var(--rule); }}
.oob tr.lost td {{ color: var(--muted); }}
.oob tr.lost td:last-child {{ color: var(--accent); }}
.turn-body {{ display: grid; grid-template-columns: minmax(0, 2fr) minmax(20rem, 1fr);
  gap: 1.6rem; align-items: start; }}
figure.map {{ margin: 0; position: sticky; top: 3.2rem; }}
figure.map svg {{ display: block; width: 100%; height: auto; border: 1px solid var(--rule);
  box-shadow: 0 1px 3px rgba(60, 45, 20, .18); }}
figcaption {{ margin-top: .4rem; font-size: .9rem; color: var(--muted); font-style: italic; }}
figcaption .fig {{ font-style: normal; font-variant: small-caps; color: var(--ink); }}
.player-turn {{ margin-bottom: 1.1rem; }}
.player-turn h3 {{ border-bottom: 2px solid var(--side-2); }}
.player-turn.side-0 h3 {{ color: var(--side-0); border-color: var(--side-0); }}
.player-turn.side-1 h3 {{ color: var(--side-1); border-color: var(--side-1); }}
.player-turn.opening h3 {{ color: var(--muted); border-color: var(--rule); }}
.player-turn ol {{ list-style: none; margin: 0; padding: 0; font-size: .93rem; }}
.player-turn li {{ padding: .12rem 0 .12rem .8rem; border-left: 2px solid transparent; }}
li.phase {{ margin-top: .45rem; padding-left: 0; font-variant: small-caps; letter-spacing: .08em;
  color: var(--muted); font-size: .85rem; }}
li.dice {{ color: var(--muted); font-size: .84rem; }}
li.order {{ color: var(--muted); font-style: italic; }}
li.attack {{ border-left-color: #b8892b; }}
li.hit {{ color: #7a3b14; }}
li.loss {{ border-left-color: var(--accent); color: var(--accent); font-weight: bold; }}
li.objective {{ border-left-color: #3d6b2e; color: #2f5a22; font-weight: bold; }}
li.end {{ border-left-color: var(--ink); font-weight: bold; }}
li.heading {{ font-weight: bold; }}
.quiet {{ color: var(--muted); font-style: italic; }}
.standing {{ margin-top: .8rem; padding-top: .4rem; border-top: 1px solid var(--rule); font-size: .9rem; }}
.standing-title {{ margin: 0 0 .2rem; font-variant: small-caps; letter-spacing: .08em; color: var(--muted); }}
.standing ul {{ margin: 0; padding-left: 1.1rem; }}
footer {{ padding-top: 1rem; color: var(--muted); font-size: .85rem; }}
@media (max-width: 1000px) {{
  body {{ padding: 0 1rem 2rem; }}
  .turn-body {{ grid-template-columns: 1fr; }}
  figure.map {{ position: static; }}
}}
@media print {{
  .turn-nav {{ display: none; }}
  figure.map {{ position: static; }}
  section.turn {{ break-inside: avoid-page; }}
}}
"""
