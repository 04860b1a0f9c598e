"""How the log tells Charge yr Pikes!' own events: a sentence each, or none for the
bookkeeping a player at the table does without a word (the card put aside, the places
noted for the guns)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tertia.activation.deck import read_card
from tertia.core.events import DiceRolled
from tertia.core.narration import (
    Narrating,
    Sentence,
    humanise,
    object_pronoun,
    plural,
    possessive,
    possessive_pronoun,
    pronoun,
    pronoun_is,
    side_does,
    tells,
)
from tertia.rulesets.charge_yr_pikes.army import VITAL_POINTS_LOST, ArmyMoraleTested
from tertia.rulesets.charge_yr_pikes.artillery import PlacesNoted
from tertia.rulesets.charge_yr_pikes.bonus import BonusOffered, BonusSpent, CloseCombatOver
from tertia.rulesets.charge_yr_pikes.cards import card_label
from tertia.rulesets.charge_yr_pikes.charge import ChargeLapsed
from tertia.rulesets.charge_yr_pikes.concealment import UnitPlaced, Unseen
from tertia.rulesets.charge_yr_pikes.events import (
    CardDone,
    CardPlayed,
    ChargeMade,
    CommandResponded,
    FireOrdered,
    MeleeLocked,
    MovedOnCard,
    OrdersDone,
    PhaseStep,
    StepOver,
    UnitChanged,
)
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.reaction import MOVE_AWAY, ChargeEvaded, Steadied
from tertia.rulesets.charge_yr_pikes.secret_grades import GradeRevealed, GradeRolled


@tells(CardPlayed)
def _card(n: Narrating, e: CardPlayed, dice: Sequence[DiceRolled]) -> Sentence:
    c = read_card(e.card)
    return f"{n.side(c.side)}: the {card_label(n.state, e.card)} card", "heading"


@tells(CardDone)
def _card_done(n: Narrating, e: CardDone, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(CommandResponded)
def _response(n: Narrating, e: CommandResponded, dice: Sequence[DiceRolled]) -> Sentence:
    units = ", ".join(n.label(u) for u in e.units)
    if e.face == 0:
        return f"{units} {'moves' if len(e.units) == 1 else 'move'} without a command roll", "order"
    who = "without officer" if e.officer is None else f"under {n.label(e.officer)}"
    face = "10, read as 0" if e.face == 10 else str(e.face)  # a D10's face marked 0 (section 22)
    they = pronoun(units) if len(e.units) == 1 else "they"
    return f"{units}, {who}, roll {face}: {f'{they} may move' if e.obeyed else 'no move'}", "order"


@tells(MovedOnCard)
def _moved_on_card(n: Narrating, e: MovedOnCard, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "move"


@tells(ChargeMade)
def _charge(n: Narrating, e: ChargeMade, dice: Sequence[DiceRolled]) -> Sentence:
    tired = f", {e.fatigued} {'man' if e.fatigued == 1 else 'men'} fatigued" if e.fatigued else ""
    return f"{n.label(e.attacker)} charges {n.label(e.target)}{tired}", "attack"


@tells(UnitChanged)
def _changed(n: Narrating, e: UnitChanged, dice: Sequence[DiceRolled]) -> Sentence:
    for key, value in e.values:
        if key == "attached_to":  # an officer takes or leaves a front rank (4 D-G)
            if value is None:
                return f"{n.label(e.unit)} leaves the front rank", "order"
            return f"{n.label(e.unit)} joins the front rank of {n.label(value)}", "order"
    shown = [words for k, v in e.values if (words := _state_in_words(k, v)) is not None]
    if not shown:
        return None, "note"
    said = next((implied for verb, implied in _SAID_BY.items() if _says(e.why, verb)), ())
    left = [words for words in shown if words not in said]
    why = _AS_VERB.get(e.why, e.why)
    return f"{n.label(e.unit)} {why}" + (f": {', '.join(left)}" if left else ""), "note"


_AS_VERB = {"mount": "mounts", "dismount": "dismounts"}
"""Reasons given as a bare verb, as a sentence for one unit says them (a unit named in
the plural takes the plural again: "Okey's Dragoons mount")."""


_SAID_BY = {"routs": ("routed", "no longer falling back"), "falls back": ("disordered", "falling back"),
            "is disordered": ("disordered",),
            "halts and dresses its ranks": ("in good order", "no longer falling back"),
            "passes its command response and ends its fall back": ("no longer falling back",),
            "mount": ("mounted",), "dismount": ("dismounted",)}
"""What a change's reason already says of the unit ("routs (fired on)"), not told again:
"Okey's Dragoons mount", not "Okey's Dragoons mount: mounted"."""


def _says(why: str, verb: str) -> bool:
    """Does the reason ``why`` open with the words ``verb`` ("routs (fired on)" with
    "routs"; "dismount" not with "mount")?"""
    return why == verb or why.startswith(verb + " ")


_FLAGS = {"disordered": ("disordered", "in good order"),
          "falling_back": ("falling back", "no longer falling back"),
          "mounted": ("mounted", "dismounted")}
"""What a unit's flags read as, set and cleared."""


def _state_in_words(key: str, value: object) -> str | None:
    """A value of a unit a player is told of, in words (None for bookkeeping)."""
    if key in _FLAGS:
        return _FLAGS[key][0 if value else 1]
    if key == "formation":
        return humanise(str(value)) if value == "routed" else f"in {humanise(str(value))}"
    if key in ("morale", "grade"):
        return f"{key} {humanise(str(value))}"
    return None


@tells(PhaseStep)
def _step(n: Narrating, e: PhaseStep, dice: Sequence[DiceRolled]) -> Sentence:
    return side_does(n.side(e.side), f"give orders for {humanise(e.step)}"), "heading"


@tells(FireOrdered)
def _ordered(n: Narrating, e: FireOrdered, dice: Sequence[DiceRolled]) -> Sentence:
    name = n.label(e.unit)
    what = {"musket": "fire at", "galloper": f"fire {possessive_pronoun(name)} galloper at"}.get(
        e.kind, f"fire {e.kind} at")
    return f"{name} is ordered to {what} {n.label(e.target)}", "order"


@tells(OrdersDone)
def _orders_done(n: Narrating, e: OrdersDone, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(StepOver)
def _step_over(n: Narrating, e: StepOver, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(PlacesNoted)
def _places(n: Narrating, e: PlacesNoted, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(MoraleTested)
def _morale(n: Narrating, e: MoraleTested, dice: Sequence[DiceRolled]) -> Sentence:
    mods = "".join(f" {v:+d} {humanise(k)}" for k, v in e.modifiers)
    outcome = "passes" if e.passed else "fails"
    return (f"{n.label(e.unit)} tests morale ({e.why}): {e.rating} + {e.die}{mods} = {e.total}, "
            f"{outcome}"), "note"


@tells(ArmyMoraleTested)
def _army(n: Narrating, e: ArmyMoraleTested, dice: Sequence[DiceRolled]) -> Sentence:
    """The D10 as the chart reads it (1 to 10: "Morale steady 1-10, Fright 11+"), every
    modifier added to it and their total, against the total that frightens."""
    army = f"{possessive(n.side(e.side))} army"
    share = f"{e.lost} of {e.strength} figures lost ({share_of(e.lost, e.strength)})"
    if e.roll is None:
        return f"{army} takes fright without a roll: {share}", "heading"
    mods = "".join(f" {v:+d} for {_army_modifier(k, e)}" for k, v in e.modifiers)
    total = f" = {e.total}" if mods and e.total is not None else ""
    result = "takes fright" if e.fright else "holds"
    return f"{army}, {share}, rolls {e.roll}{mods}{total} (fright on {e.needed}+): it {result}", "heading"


def _army_modifier(name: str, e: ArmyMoraleTested) -> str:
    if name == VITAL_POINTS_LOST:
        return f"{plural(e.vital_lost, 'vital point')} lost"
    return humanise(name)


def share_of(lost: int, strength: int) -> str:
    """A share of an army as a percentage, cut (never rounded up) to a tenth, so that it
    falls in the chart's band as the exact share does: 19.96% is "19.9%", in "0 - 19%".

    >>> share_of(30, 100), share_of(47, 190), share_of(499, 2500), share_of(0, 0)
    ('30%', '24.7%', '19.9%', '0%')
    """
    tenths = (1000 * lost // strength) if strength else 0
    whole, tenth = divmod(tenths, 10)
    return f"{whole}.{tenth}%" if tenth else f"{whole}%"


@tells(MeleeLocked)
def _locked(n: Narrating, e: MeleeLocked, dice: Sequence[DiceRolled]) -> Sentence:
    pairs = ", ".join(f"{n.label(a)} and {n.label(t)}" for a, t, *_ in e.charges)
    return f"{pairs} are locked in melee: it goes on next turn", "attack"


@tells(BonusOffered)
def _bonus(n: Narrating, e: BonusOffered, dice: Sequence[DiceRolled]) -> Sentence:
    what = "a bonus move or a breakthrough" if e.breakthrough else "a bonus move"
    return f"{n.label(e.unit)} may make {what}", "move"


@tells(BonusSpent)
def _bonus_spent(n: Narrating, e: BonusSpent, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(CloseCombatOver)
def _close_combat_over(n: Narrating, e: CloseCombatOver, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "note"


@tells(Steadied)
def _steadied(n: Narrating, e: Steadied, dice: Sequence[DiceRolled]) -> Sentence:
    what = "move away from the charge" if e.purpose == MOVE_AWAY else "change formation or reface"
    return f"{n.label(e.unit)} holds together under the charge and may {what}", "move"


@tells(ChargeEvaded)
def _evaded(n: Narrating, e: ChargeEvaded, dice: Sequence[DiceRolled]) -> Sentence:
    chargers = " and ".join(n.label(c) for c in e.chargers)
    how = "flees before" if e.routed else "moves away from"
    return f"{n.label(e.unit)} {how} the charge of {chargers}: it strikes nothing", "move"


@tells(ChargeLapsed)
def _lapsed(n: Narrating, e: ChargeLapsed, dice: Sequence[DiceRolled]) -> Sentence:
    return (f"{possessive(n.label(e.attacker))} charge on {n.label(e.target)} comes to nothing: "
            f"they stand {e.apart:.1f}\" apart, too far to close"), "move"


@tells(GradeRolled)
def _grade_rolled(n: Narrating, e: GradeRolled, dice: Sequence[DiceRolled]) -> Sentence:
    under = " (kept from the enemy)" if e.secret else ""
    officer = possessive(n.label(e.officer), person=True)
    return f"{officer} value is rolled: {humanise(e.grade)}{under}", "note"


@tells(GradeRevealed)
def _grade_revealed(n: Narrating, e: GradeRevealed, dice: Sequence[DiceRolled]) -> Sentence:
    return (f"{n.label(e.officer)} is called on ({e.why}): his value is shown, "
            f"{humanise(e.grade)}"), "note"


@tells(UnitPlaced)
def _placed(n: Narrating, e: UnitPlaced, dice: Sequence[DiceRolled]) -> Sentence:
    # Both sides read it: "the enemy" of the piece placed is named.
    state = n.state
    unit = state.units.get(e.unit) if state is not None else None
    why = e.why
    if state is not None and unit is not None and unit.side in state.sides:
        told = PLACED_WHY.get(why)
        if told is not None:
            why = told(n.side(state.opponent(unit.side)), n.label(e.unit), unit.is_commander)
    return f"{n.label(e.unit)} is placed on the table: {why}", "status"


PLACED_WHY: dict[str, Callable[[str, str, bool], str]] = {
    "the enemy sees it":
        lambda other, name, person: f"{pronoun_is(name, person=person)} in sight of {other}",
    "it comes into the enemy's sight":
        lambda other, name, person: side_does(pronoun(name, person=person), f"come into sight of {other}"),
    "the enemy comes within sight of it":
        lambda other, name, person: side_does(
            other, f"come within sight of {object_pronoun(name, person=person)}"),
}
"""Why a hidden piece is placed, with the side that sees it and the piece named (for its
pronoun: "he" for an officer)."""


@tells(Unseen)
def _unseen(n: Narrating, e: Unseen, dice: Sequence[DiceRolled]) -> Sentence:
    """What only its own side saw, told to that side as the event itself."""
    entry = getattr(n, "_entry", None)  # the narrator's own line for the event inside
    told = entry(e.inner, dice) if entry is not None else None
    if told is None:
        return None, "note"
    return f"Unseen by the enemy: {told.text}", told.kind
