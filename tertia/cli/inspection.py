"""What ``tertia inspect`` shows beside the pieces: the rule set's panels (the deck of
cards, the objectives and who holds each, the orders left ...) as the page builds them
(:mod:`tertia.io.panels`), where each side stands against a victory, the turn and when the
battle ends, the score and each army's losses, as a referee (or one side) sees them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table
from rich.text import Text

from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.narration import humanise, side_does, without_aside
from tertia.core.presentation import LastTurn, PanelItem, PanelSection
from tertia.core.state import GameState
from tertia.io.panels import PanelView, referee_panels, side_panels

STATE_WORDS = {"active": "in play", "played": "played", "back": "face down", "gone": "command lost",
               "waiting": "face down", "obeyed": "obeyed", "refused": "refused"}
"""A card's state in words, where a row of cards shows it by its look on the page."""

@dataclass(frozen=True)
class Inspection:
    """The position beside its pieces, as ``side`` sees it (None: a referee, who sees
    everything): ``seen``, its view of ``state``, and what the rule set shows of it."""

    game: Game
    state: GameState
    seen: GameState
    side: str | None
    panels: tuple[PanelView, ...]
    standing: tuple[str, ...]
    last_turn: LastTurn
    summary: Mapping[str, Any]

    @property
    def names(self) -> dict[str, str]:
        return self.game.scenario.side_names()

    def name(self, side: object) -> str:
        return self.names.get(str(side), str(side))


def inspection(game: Game, state: GameState, told: Sequence[Sequence[Event]], side: str | None) -> Inspection:
    """What ``side`` (None: a referee) is shown of ``state`` beside the pieces, ``told``
    the events of the battle's start and each action that led to it, first first (those
    ``side`` may not see left out)."""
    seen = state if side is None else game.observed_state(state, side)
    visible = game.ruleset.event_visible_to
    shown = [list(events) if side is None else [e for e in events if visible(e, side)] for events in told]

    def recent() -> Iterable[Sequence[Event]]:
        return reversed(shown)  # the page's order: newest first

    if side is None:
        views = referee_panels(game, state, recent)
    else:
        views = side_panels(game, state, seen, side, recent)
    shows, names = game.ruleset.presentation(), game.scenario.side_names()
    return Inspection(game, state, seen, side, tuple(views), shows.standing(seen, names),
                      shows.last_turn(seen, game.scenario.turns), _summary(game, seen))


def _summary(game: Game, seen: GameState) -> Mapping[str, Any]:
    """The rule set's position in brief, as the page's status line reads it; empty when it
    cannot be worked out from a side's view (as the page gives it)."""
    try:
        return dict(game.ruleset.presentation().summary(seen))
    except (KeyError, TypeError, ValueError):
        return {}


# --- JSON ---------------------------------------------------------------------------------------


def to_dict(inspected: Inspection) -> dict[str, Any]:
    """The panels, standing, turn and status, structured (the pieces are given apart)."""
    state = inspected.seen
    return {
        "side": inspected.side, "phase": state.phase, "to_act": None if state.is_over else state.to_act,
        "over": state.is_over, "result": dict(state.result) if state.result else None,
        "last_turn": inspected.last_turn.to_dict(), "standing": list(inspected.standing),
        "score": dict(inspected.summary.get("score") or {}), "army_losses": army_losses(inspected.summary),
        "panels": [view.to_dict() for view in inspected.panels],
    }


def army_losses(summary: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each army's losses as a share of its figures (None where its pieces are unseen),
    what it needs to take fright at the end of this turn (None where unseen or once the
    battle is over) and whether it has taken fright, where the rule set keeps army morale
    (the summary's ``losses_percent``, ``fright_odds`` and ``fright``); empty where it
    does not."""
    losses = summary.get("losses_percent")
    if not isinstance(losses, Mapping):
        return {}
    fright = set(summary.get("fright") or ())
    odds = summary.get("fright_odds") or {}
    return {str(side): {"percent": share, "fright": side in fright, "fright_odds": odds.get(side)}
            for side, share in losses.items()}


# --- text ---------------------------------------------------------------------------------------


def panel_tables(inspected: Inspection) -> Iterable[Table]:
    """Each panel that shows anything now as a table of its sections. A panel with nothing
    in it is left out, as the page hides it: a deployment panel has nothing to show from
    the battle's first turn to its end, and would otherwise be said empty at every
    position (the JSON still gives every panel, its sections empty)."""
    every = len(inspected.state.sides)
    for view in inspected.panels:
        if view.empty:
            continue
        title = view.spec.label
        if inspected.side is None and len(view.seen_by) < every:
            title += f", as {_seeing(inspected, view.seen_by)} it"
        table = Table(title=title, title_justify="left")
        table.add_column("part")
        table.add_column("shows")
        for section in view.panel.sections:
            table.add_row(Text(section.title or ""), _section_text(inspected, section))
        yield table


def _seeing(inspected: Inspection, sides: Sequence[str]) -> str:
    """"Parliament sees", "Royalists see": the sides a panel is shown as, seeing."""
    if len(sides) == 1:
        return side_does(inspected.name(sides[0]), "see")
    return " and ".join(inspected.name(s) for s in sides) + " see"


def _section_text(inspected: Inspection, section: PanelSection) -> Text:
    """A section's items, a row of cards on one line, anything else one a line; its note
    after them."""
    words = [_item_words(inspected, section, item, n) for n, item in enumerate(section.items, 1)]
    body = " · ".join(words) if section.style == "cards" else "\n".join(words)
    text = Text(body)
    if section.note:
        text.append(("\n" if body else "") + section.note, style="italic")
    return text


def _item_words(inspected: Inspection, section: PanelSection, item: PanelItem, n: int) -> str:
    """One item as the page shows it, what the page shows by colour or on hover said in
    words after it (:func:`_extras`, :func:`_adds`)."""
    text = item.text or STATE_WORDS.get(item.state or "", "")
    extras = _extras(inspected, section, item, text)
    shown = f"{text} — {'; '.join(extras)}" if extras else text
    if section.style == "dice":  # its title says what the face is
        face = item.face if item.face and item.face != "–" else "no die"
        return f"[{face}] {shown}"
    if _adds(item.title, text, extras):
        shown += f". {item.title}"
    return f"{n}. {shown}" if section.style == "ordered" else shown


def _extras(inspected: Inspection, section: PanelSection, item: PanelItem, text: str) -> list[str]:
    """What an item's look tells on the page, in words: its side (where neither its
    section nor its text names it), its note, or else a card's state."""
    extras: list[str] = []
    if item.side and item.side != section.side and item.state != "back" \
            and without_aside(inspected.name(item.side)) not in text:
        extras.append(inspected.name(item.side))
    if item.note:
        extras.append(item.note)
    elif section.style == "cards" and item.state and item.text:
        extras.append(STATE_WORDS.get(item.state, humanise(item.state)))
    return extras


def _adds(title: str | None, text: str, said: Sequence[str]) -> bool:
    """Does an item's title (its words on hover) tell more than its text and what is said
    after it (not a side's name, a card's state, nor the text again)?"""
    if not title or "\n" in title or title in said or title in STATE_WORDS.values():
        return False
    return text.casefold() not in title.casefold()


def status_lines(inspected: Inspection) -> list[Text]:
    """The turn and when the battle ends (or how it ended), who is to act, the score and
    each army's losses, and where each side stands against a victory."""
    lines = [Text(_turn_line(inspected), style="bold"), *(Text(line) for line in _status(inspected))]
    lines += [Text(line) for line in inspected.standing]
    return lines


def _turn_line(inspected: Inspection) -> str:
    """"Turn 3 of 11–16. Darkness falls ...", as the page's turn chip, its rule on hover
    said after it; before the first turn the armies deploy; once over, how it ended."""
    state, last = inspected.seen, inspected.last_turn
    if state.is_over:
        return f"The battle ended on turn {state.turn}, {_result(inspected)}"
    rule = f" {last.rule}" if last.rule else ""
    if state.turn < 1:
        return f"Deployment, before turn 1 of {last.text}.{rule}"
    return f"Turn {state.turn} of {last.text}.{rule}"


def _result(inspected: Inspection) -> str:
    """"a victory to Royalists: ...", the reason after a colon as the battle's result
    gives it, so that its own asides keep their brackets."""
    result = inspected.seen.result or {}
    winner, reason = result.get("winner"), result.get("reason")
    verdict = f"a victory to {inspected.name(winner)}" if winner else "a drawn battle"
    return verdict + (f": {str(reason).rstrip('.')}." if reason else ".")


def _status(inspected: Inspection) -> list[str]:
    """Who is to act, the score and each army's losses, as the page's status line has them."""
    state, summary = inspected.seen, inspected.summary
    acting = f"{inspected.name(state.to_act)} to act, {humanise(state.phase)} phase."
    lines = [] if state.is_over else [acting]
    score = summary.get("score")
    if isinstance(score, Mapping) and score:
        each = [f"{inspected.name(s)} {score.get(s, 0)}" for s in state.sides]
        lines.append(f"Score: {', '.join(each)}.")
    told = losses_line(summary, state.sides, inspected.name)
    return lines if told is None else [*lines, told]


ARMY_LOSS_KEYS = frozenset({"losses_percent", "fright_odds", "fright", "losses_counted"})
"""The items of a rule set's summary that tell each army's losses (:func:`army_losses`):
told together in one line (:func:`losses_line`), never one by one."""


def losses_line(summary: Mapping[str, Any], sides: Sequence[str], name: Callable[[str], str]) -> str | None:
    """Each army's losses in one line, as the page's losses chip has them ("Army morale:
    Royalists 12% lost (fright on 10+, 10%); Parliament 3% lost"); None where the rule set
    keeps no army morale."""
    losses = army_losses(summary)
    if not losses:
        return None
    # once over, the casualties the result counts, which may count more than army morale did
    measure = "Casualties counted for the result" if summary.get("losses_counted") == "result" \
        else "Army morale"
    each = [_losses(name(s), losses[s]) for s in sides if s in losses]
    return f"{measure}: {'; '.join(each)}."


def _losses(name: str, losses: Mapping[str, Any]) -> str:
    """An army's losses as the page's losses chip gives them: a share under 1% to a tenth,
    so that one figure lost never reads as none; then what it needs to take fright at the
    end of this turn ("fright on 9+, 20%")."""
    share = losses["percent"]
    if not isinstance(share, int | float):
        words = "losses not known (pieces unseen)"
    else:
        words = f"{max(0.1, round(share, 1)) if 0 < share < 1 else round(share)}% lost"
    odds = losses.get("fright_odds")
    needs = f" ({odds['words']})" if isinstance(odds, Mapping) and odds.get("words") else ""
    return f"{name} {words}{needs}" + (", taken fright" if losses["fright"] else "")
