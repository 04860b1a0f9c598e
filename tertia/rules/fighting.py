"""Fighting shared by the rule sets that count hits: one unit attacking another (with
supports and an encouraging commander under ``larger-battles``; a D3 melee under the D3
rule sets), a unit shooting, and the report of a fight resolved."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action
from tertia.core.events import DiceRolled, Event
from tertia.core.narration import Narrating, Sentence, humanise, possessive, takes_dice, tells
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, Violation, not_in_play
from tertia.rules.codes import FightingCode


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """A primary attacker engages a target, with supporting units and an encouraging
    commander (larger-battles: Combat)."""

    type: ClassVar[str] = "attack"
    attacker: str
    target: str
    supports: tuple[str, ...] = ()
    commander: str | None = None


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """A unit fires its muskets (or a gun its shot) at a target."""

    type: ClassVar[str] = "shoot"
    unit: str
    target: str


def not_an_enemy(attacker: Unit, target: Unit, clause: str) -> list[Violation]:
    """``target`` refused as no enemy troop for ``attacker`` to attack, saying why: it is
    of ``attacker``'s own side, or a commander, whom no rule set counting hits lets be
    attacked on his own; nothing when it is an enemy troop."""
    if target.side == attacker.side:
        own = f"{target.label} is on {possessive(attacker.label, person=attacker.is_commander)} own side"
        return [Violation(FightingCode.NOT_ENEMY, own, clause)]
    if target.is_commander:
        return [Violation(FightingCode.NOT_ENEMY,
                          f"{target.label} is a commander: only the enemy's troops may be attacked", clause)]
    return []


def no_target(state: GameState, target_id: str, attacker: Unit, clause: str,
              unseen: Collection[str] = ()) -> list[Violation]:
    """``target_id`` refused as no enemy in play for ``attacker`` to attack, in words a
    player reads (:func:`~tertia.core.violations.not_in_play`) and with the code that says
    why: no such piece (or one off the table for an ``unseen`` reason), one of the
    attacker's own side, or one no longer in play; nothing when it is an enemy in play."""
    target = state.units.get(target_id)
    if target is None or target.removed in unseen:
        code = CoreCode.UNKNOWN_UNIT
    elif target.side == attacker.side:
        code = FightingCode.NOT_ENEMY
    elif not target.in_play:
        code = CoreCode.UNIT_REMOVED
    else:
        return []
    return [Violation(code, not_in_play(state, target_id, foe_of=attacker.side, unseen=unseen), clause)]


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    """A combat, bombardment or shot was resolved (the dice are separate events)."""

    type: ClassVar[str] = "attack_resolved"
    kind: str
    attacker: str
    target: str
    supports: tuple[str, ...]
    attacker_score: int
    defender_score: int
    modifiers: tuple[str, ...]
    defender_modifiers: tuple[str, ...]
    summary: str


# --- how the narrative tells an attack (core/narration.py) ---------------------------------
# The rule set's own summary when it gives one, else the dice and scores, the modifiers
# named and the odds a front end adds; the dice rolled just before an attack that name its
# pieces are folded into its line.

VERBS = {"combat": "attacks", "melee": "attacks", "bombard": "bombards", "bombardment": "bombards",
         "shooting": "shoots at", "shot": "shoots at"}


@tells(AttackResolved)
def _attack(n: Narrating, e: AttackResolved, dice: Sequence[DiceRolled]) -> Sentence:
    """The rule set's summary when it gives one (it already holds the dice and the
    outcome), with the modifiers named; otherwise a line built from the scores."""
    mods = ""
    if e.modifiers:
        mods += f" ({', '.join(map(told_modifier, e.modifiers))})"
    if e.defender_modifiers:
        mods += f" (defender {', '.join(map(told_modifier, e.defender_modifiers))})"
    found = n.note(e)
    note = f" [{found}]" if found else ""
    summary = e.summary.strip().rstrip(".")
    if summary:
        return summary + mods + note, "attack"
    lead = f"{n.label(e.attacker)} {VERBS.get(e.kind, humanise(e.kind) + ':')} {n.label(e.target)}"
    if e.supports:
        lead += f" (supported by {len(e.supports)})"
    return f"{lead}: {arithmetic(e, dice, n.label(e.target))}{note}", "attack"


takes_dice(AttackResolved, lambda e: (e.attacker, e.target))

_DIE_IT_MAKES = re.compile(r"([+-])(\d+) (D\d+\1\2 for .+)")
"""A modifier whose reason is the die its value makes of the roll ("-1 D3-1 for dragoons")."""


def told_modifier(modifier: str) -> str:
    """A modifier as an attack's line names it: its value and reason as recorded, save
    where the reason is the die that value makes, which would say the value twice.

    >>> told_modifier("-1 D3-1 for dragoons"), told_modifier("-1 target in cover (hedge)")
    ('D3-1 for dragoons', '-1 target in cover (hedge)')
    >>> told_modifier("-1 D3-2 for Clubmen")
    '-1 D3-2 for Clubmen'
    """
    restated = _DIE_IT_MAKES.fullmatch(modifier)
    return modifier if restated is None else restated.group(3)


def arithmetic(e: AttackResolved, dice: Sequence[DiceRolled], target_label: str) -> str:
    """"5+1=6 against 3+0=3" from the dice and the final scores.

    >>> e = AttackResolved("combat", "a", "t", (), 6, 3, ("+1 charging",), (), "")
    >>> arithmetic(e, [DiceRolled("a attacks", "d6", 5), DiceRolled("t defends", "d6", 3)], "t")
    '5+1=6 (+1 charging) against 3+0=3'
    """
    att_die, def_die, other = _assign_dice(e, dice, target_label)
    att = _score_text(att_die, e.attacker_score, e.modifiers)
    if def_die is None and not e.defender_modifiers and att_die is not None and not other:
        return f"rolled {att_die.value}, needs {e.defender_score}"  # one die against a need
    text = f"{att} against {_score_text(def_die, e.defender_score, e.defender_modifiers)}"
    if other:
        text += " (dice " + ", ".join(str(d.value) for d in other) + ")"
    return text


def _score_text(die: DiceRolled | None, score: int, modifiers: Sequence[str]) -> str:
    mods = f" ({', '.join(modifiers)})" if modifiers else ""
    if die is None:
        return f"{score}{mods}"
    delta = score - die.value
    sign = "+" if delta >= 0 else "−"
    return f"{die.value}{sign}{abs(delta)}={score}{mods}"


def _assign_dice(
    e: AttackResolved, dice: Sequence[DiceRolled], target_label: str
) -> tuple[DiceRolled | None, DiceRolled | None, list[DiceRolled]]:
    """Which of an attack's dice is the attacker's and which the defender's.

    A die whose purpose names the defender (or the word "defend") is the defender's;
    otherwise the first die is the attacker's and the second the defender's.
    """
    if not dice:
        return None, None, []
    pool = list(dice)
    defender = None
    for d in pool:
        p = d.purpose.lower()
        if "defend" in p or (
            ("target" in p or p.startswith(e.target.lower()) or p.startswith(target_label.lower()))
            and "attack" not in p
        ):
            defender = d
            break
    if defender is not None:
        pool.remove(defender)
    attacker = pool.pop(0) if pool else None
    if defender is None and pool:
        defender = pool.pop(0)
    return attacker, defender, pool
