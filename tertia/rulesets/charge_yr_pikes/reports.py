"""What Charge yr Pikes! shows a player beside the table: the turn in brief (the card in
play and the units that may move on it, the fire step and the orders given, the cards
still to turn, each army's losses (``None`` on a view hiding some of its pieces), what it
needs to take fright at the end of this turn and whether it has taken fright, the objectives and
vital points and the side holding each as the viewer sees the table, and while a side
deploys in secret, where it may deploy; each tertia's card by name) and a unit's card (its
figures by weapon and stands, formation, disorder, falling back, morale: "untested" until
first tested, its officer's rank and grade, "not yet shown" on the enemy's view while
it is secret)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, get_args

from tertia.activation.deck import group_card, special_card
from tertia.activation.panels import unit_deck_panel
from tertia.core.hidden import is_hidden
from tertia.core.narration import default_side_name, humanise, plural, possessive
from tertia.core.presentation import (
    WAGON,
    Fact,
    FactKind,
    FactSpec,
    LastTurn,
    Panel,
    PanelContext,
    Presentation,
)
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.core.vocabulary import DECK
from tertia.rulesets.charge_yr_pikes import army, points
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES
from tertia.rulesets.charge_yr_pikes.cards import (
    FREE_MOVE,
    OFFICERS_AND_ARTILLERY,
    card_label,
    tertia_label_in,
)
from tertia.rulesets.charge_yr_pikes.concealment import UNPLACED, deploying
from tertia.rulesets.charge_yr_pikes.data import FORMATIONS, GRADES, RANKS, CypUnit
from tertia.rulesets.charge_yr_pikes.deployment import CENTRE_CLEAR, COVER
from tertia.rulesets.charge_yr_pikes.points_panel import POINTS, points_panel, standing
from tertia.rulesets.charge_yr_pikes.tables import MOST_GUNNERS, Gun, Tables, default_tables, tables_of
from tertia.rulesets.charge_yr_pikes.troops import TROOPS
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.rulesets.charge_yr_pikes.victory import DARKNESS_DIE, ENDINGS

UNTESTED = "untested"
NOT_SHOWN = "not yet shown"
NOT_ROLLED = "not rolled"
STEADY = "steady on any roll"
"""An army whose fright test no face of the D10 can fail, as its losses stand (15 L)."""


def summary(state: GameState, tables: Tables) -> dict[str, Any]:
    """The turn in brief."""
    g = game_data(state)
    return {
        "card": g.card,
        "moving": list(g.moving),
        "fire_step": g.step,
        "orders": [list(o) for o in g.orders],
        "cards_left": len(g.deck_left) if state.turn >= 1 else None,  # no deck while the armies deploy
        "darkness_in": g.darkness_in,
        "losses_percent": {side: None if _unseen(state, side) else float(_losses(state, side, tables).percent)
                           for side in state.sides},
        "losses_counted": "result" if state.is_over else "army_morale",
        "fright_odds": {} if state.is_over else {
            side: None if _unseen(state, side) else fright_odds(state, side, tables) for side in state.sides},
        "fright": list(g.fright),
        "points": [{"side": p.side, "kind": p.kind, "role": p.role, "name": p.name, "x": p.x, "y": p.y,
                    "held_by": points.holder(state, p, tables)} for p in points.places(state)],
        "deploy_zone": deploy_zone(state),
        "card_names": card_names(state),
        "words": {"done_with": done_with(state)},
    }


def _losses(state: GameState, side: str, tables: Tables) -> army.ArmyLosses:
    """A side's losses as the page shows them: those army morale counts (15 L) while the
    battle goes on, those the result counts (19 D, F) once it is over, so the page agrees
    with the result it shows."""
    counted = army.final_losses if state.is_over else army.fright_losses
    return counted(state, side, tables)


def fright_odds(state: GameState, side: str, tables: Tables) -> dict[str, Any]:
    """What ``side``'s army needs to take fright at the end of this turn (15 L, "Effects
    on the entire army"), as its test stands now: the D10 ``roll`` (None: fright without
    one), the ``chance`` of it and both in ``words`` ("fright on 9+, 20%", "steady on
    any roll")."""
    test = army.fright_test(state, side, tables)
    return {"roll": test.roll, "chance": float(test.chance), "words": fright_words(test)}


def fright_words(test: army.FrightTest) -> str:
    """"fright on 9+, 20%"; "takes fright without a roll" at 50% lost; "steady on any
    roll" where the total needed lies beyond the D10 (under a fifth lost, no vital point
    lost: "Morale steady 1-10, Fright 11+", 15 L)."""
    if test.roll is None:
        return "takes fright without a roll"
    if test.chance == 0:
        return STEADY
    needs = "any roll" if test.roll <= 1 else f"{test.roll}+"
    return f"fright on {needs}, {float(test.chance):.0%}"


def done_with(state: GameState) -> str | None:
    """What ending the phase now finishes, for its button ("Done with the standing fire
    orders"): the fire step's orders, the bonus moves, or the card in play."""
    g = game_data(state)
    if g.step == BONUS_MOVES:
        return "the bonus moves"
    if g.step is not None:
        return f"the {humanise(g.step)} orders"
    return None if g.card is None else f"the {card_label(state, g.card)} card"


def card_names(state: GameState) -> dict[str, str]:
    """Each tertia's brigade card as the players call it, by the card: its arms and its
    commander (:func:`~tertia.rulesets.charge_yr_pikes.cards.tertia_label`), from the order
    of battle both sides know; and each side's special cards ("Parliament's free move
    card")."""
    found: dict[str, str] = {}
    for unit in state.iter_units(include_removed=True):
        card = group_card(unit.command, unit.side)
        if card not in found and (label := tertia_label_in(state, unit.command, unit.side)) is not None:
            found[card] = label
    for side in state.sides:
        for name in (FREE_MOVE, OFFICERS_AND_ARTILLERY):
            card = special_card(name, side)
            found[card] = f"{possessive(default_side_name(side))} {card_label(None, card)} card"
    return found


def deploy_zone(state: GameState) -> dict[str, Any] | None:
    """Where the side deploying in secret may place its pieces (Set-up D), for the page
    to shade; None when no side is deploying. ``edge``: its own table edge (its half is
    that edge's half of the table); ``centre_clear``: the inches either side of the centre
    line where only pieces in ``cover`` (towns, woods) may stand."""
    side = deploying(state)
    if side is None:
        return None
    edge = game_data(state).edges.get(side, "south" if side == state.sides[0] else "north")
    return {"side": side, "edge": edge, "centre_clear": CENTRE_CLEAR, "cover": [str(k) for k in COVER]}


def _unseen(state: GameState, side: str) -> bool:
    """Are pieces of ``side`` hidden in this view? Its losses are then not known (a hidden
    piece is off the table in the view, not lost)."""
    return any(u.removed == UNPLACED for u in state.iter_units(side, include_removed=True))


MOST_MORALE = max(max(line) for line in default_tables().initial_morale.values())
"""The most morale points a unit has under the rule book's tables: the best first roll,
every permanent change a loss."""
GRADE_WORDS = (NOT_SHOWN, NOT_ROLLED, *(humanise(grade) for grade in GRADES))
"""An officer's value as his card may show it."""

TROOP = FactSpec("troop", "Troop", FactKind.WORD, "Its troop type", "Charge yr Pikes! Troop types",
                 words=tuple(TROOPS))
TERTIA = FactSpec("tertia", "Tertia", FactKind.WORD, "The tertia (brigade) whose card moves it",
                  "Charge yr Pikes! Organisation")
FIGURES = FactSpec("figures", "Figures", FactKind.COUNT, "Figures left of those it started with",
                   "Charge yr Pikes! Casualties", on_base=True)
WEAPONS = FactSpec("weapons", "Pike and shot", FactKind.WORD, "Its figures by weapon",
                   "Charge yr Pikes! Troop types")
STANDS = FactSpec("stands", "Stands", FactKind.PIPS, "Stands left", "Charge yr Pikes! Casualties")
FORMATION = FactSpec("formation", "Formation", FactKind.WORD, "Line, column, square or deployed",
                     "Charge yr Pikes! Formations", on_base=True, words=FORMATIONS)
DISORDERED = FactSpec("disordered", "Disordered", FactKind.BADGE, "Disordered: it must reform",
                      "Charge yr Pikes! Disorder", glyph="D", on_base=True)
FALLING_BACK = FactSpec("falling_back", "Falling back", FactKind.BADGE, "Falling back after a failed test",
                        "Charge yr Pikes! Morale", glyph="FB", on_base=True)
MORALE = FactSpec("morale", "Morale", FactKind.WORD, "Its morale: untested until first tested",
                  "Charge yr Pikes! Morale", words=(UNTESTED,), most=MOST_MORALE)
MOVED = FactSpec("moved", "Has moved", FactKind.FLAG, "It has moved this turn", "Charge yr Pikes! Movement")
GUN = FactSpec("gun", "Gun", FactKind.WORD, "The gun's weight", "Charge yr Pikes! Artillery",
               words=get_args(Gun))
GUNNERS = FactSpec("gunners", "Gunners", FactKind.PIPS, "Gunners left to serve it",
                   "Charge yr Pikes! Artillery", most=MOST_GUNNERS)
GUN_FIRED = FactSpec("gun_fired", "Has fired", FactKind.BADGE, "The gun has fired this turn",
                     "Charge yr Pikes! Artillery", glyph="✹", on_base=True)
SILENCED = FactSpec("silenced", "Silenced", FactKind.BADGE, "Silenced: it may not fire",
                    "Charge yr Pikes! Artillery", glyph="S", on_base=True)
MOUNTED = FactSpec("mounted", "Mounted", FactKind.FLAG, "Dragoons on their horses",
                   "Charge yr Pikes! Dragoons")
RANK = FactSpec("rank", "Rank", FactKind.WORD, "The officer's rank", "Charge yr Pikes! Officers",
                words=RANKS)
GRADE = FactSpec("grade", "Value", FactKind.WORD, "The officer's value: secret from the enemy until shown",
                 "Charge yr Pikes! 22 Officers' values", words=GRADE_WORDS)
LEADS = FactSpec("leads", "With", FactKind.WORD, "The unit the officer is with", "Charge yr Pikes! Officers")
UNSEEN = FactSpec("unseen", "Hidden from the enemy", FactKind.HIDDEN,
                  "Noted on your map, not yet placed on the table where the enemy could see it",
                  "Charge yr Pikes! Set-up D", glyph="?", on_base=True)

FACTS = (TROOP, TERTIA, FIGURES, WEAPONS, STANDS, FORMATION, DISORDERED, FALLING_BACK, MORALE, MOVED, GUN,
         GUNNERS, GUN_FIRED, SILENCED, MOUNTED, RANK, GRADE, LEADS, UNSEEN)
"""What a Charge yr Pikes! piece shows."""

FORMATION_MARKS = {"column": "C", "square": "Sq", "deployed": "Dp", "routed": "R"}
"""A formation's mark on the base; a line, the usual order, has none."""


def unit_facts(state: GameState, unit: Unit) -> list[Fact]:
    """A unit's card as a referee reads it (or a side, from its view): its figures by
    weapon and stands, formation, disorder, falling back, morale ("untested" until first
    tested), its officer's rank and value ("not yet shown" on the enemy's view while it
    is secret)."""
    own = unit_data(unit)
    out = [Fact(TROOP.key, own.troop), Fact(UNSEEN.key, not own.placed)]
    if own.is_officer:
        leads = state.units.get(own.attached_to) if own.attached_to else None
        return [*out, Fact(RANK.key, own.rank),
                Fact(GRADE.key, _grade(own.grade)),
                Fact(LEADS.key, own.attached_to, words=leads.label if leads else None)]
    out += [
        Fact(TERTIA.key, tertia_label_in(state, unit.command, unit.side) or None),
        Fact(FIGURES.key, own.strength, limit=own.start, note=_figures_note(own)),
        Fact(STANDS.key, own.stands_left),
        Fact(FORMATION.key, own.formation, glyph=FORMATION_MARKS.get(own.formation)),
        Fact(DISORDERED.key, own.disordered),
        Fact(FALLING_BACK.key, own.falling_back),
        Fact(MORALE.key, UNTESTED if own.morale is None else own.morale),
        Fact(MOVED.key, own.moved),
    ]
    if own.pike or own.shot:
        # One number a fact: the shot, who fire; the pike are the rest of its figures.
        out.append(Fact(WEAPONS.key, own.shot, words=f"{own.pike} pike, {own.shot} shot"))
    if own.is_gun:
        out += [Fact(GUN.key, own.gun), Fact(GUNNERS.key, own.men),
                Fact(GUN_FIRED.key, own.gun_fired), Fact(SILENCED.key, own.silenced)]
    if own.troop == "dragoons":
        out.append(Fact(MOUNTED.key, own.mounted))
    return out


RANK_TITLES = {"army": "General", "wing": "Wing commander", "brigadier": "Brigadier",
               "staff": "Staff officer"}
"""Each rank (:data:`~.data.RANKS`) as the title an officer of it is called by."""


class CypPresentation(Presentation):
    """Charge yr Pikes!'s pieces and position as its front ends show them."""

    FACTS = FACTS
    BREAKDOWN_TITLE = "Each army's own count (19 C, D)"
    """The result's breakdown is each army's own losses and points held, not where its
    score (the enemy's casualties) came from."""
    FIRST_MOVER = False
    """Both armies' cards are shuffled into one deck: the deck, not a side, moves first."""
    SHARED_TURNS = True
    """Both armies act in every turn, as their brigade cards come from one deck shuffled
    together (Sequence of play)."""
    ENDINGS = ENDINGS
    DICE_WORDS: ClassVar[Mapping[str, str]] = {
        "half hit confirmed: ": "half hit: ",
        "galloper's gunners hit instead: ": "galloper's gunners: ",
        "officer falls: ": "officer's fate: ",
        "silenced battery rallies: ": "silenced battery's rally: ",
    }
    """Four dice told by the test they decide, not by the outcome their purposes name: an
    odd half hit confirmed on a D6 (or not), a galloper's gunners and a front-rank officer
    each hit on a D10 (or spared), a silenced battery's rally (or none)."""

    def facts(self, table: Battlefield, seen: GameState, unit: Unit, viewer: str | None) -> list[Fact]:
        return unit_facts(seen, unit)

    def lost(self, unit: Unit) -> bool:
        """Troops that left the table alive are no loss: those that pursued the beaten enemy
        off it, and losers that got off their own edge in the pursuit phase, who "will
        live" (19 E 1; :data:`~tertia.rulesets.charge_yr_pikes.army.ALIVE_OFF_TABLE`)."""
        return not unit.in_play and unit.removed not in army.ALIVE_OFF_TABLE

    def kind_label(self, unit: Unit) -> str:
        """The baggage train's wagons are the army's baggage (Unit Organizations C, 19 B),
        not its guns, though the engine counts both among the artillery."""
        return "baggage" if unit_data(unit).troop == "wagons" else super().kind_label(unit)

    def kind_mark(self, unit: Unit) -> str:
        """The baggage train's wagons are drawn as wagons, not guns."""
        return WAGON if unit_data(unit).troop == "wagons" else super().kind_mark(unit)

    def title(self, seen: GameState, unit: Unit) -> str | None:
        """An officer's rank as a title before his name (section 22's ranks: the army's
        commander, a wing's, a brigadier, a staff officer)."""
        rank = unit_data(unit).rank
        return None if rank is None else RANK_TITLES.get(rank, rank.replace("_", " ").capitalize())

    def panel(self, name: str, seen: GameState, context: PanelContext) -> Panel:
        """The deck of unit cards: the card drawn, the cards left and those drawn; the
        objectives and vital points (:mod:`~.points_panel`)."""
        if name == POINTS:
            return points_panel(seen, context, tables_of(seen))
        if name != DECK:
            return Panel()
        return unit_deck_panel(seen, context, game_data(seen).card, card_names(seen))

    def summary(self, state: GameState) -> dict[str, Any]:
        return summary(state, tables_of(state))

    def last_turn(self, state: GameState, turns: int) -> LastTurn:
        """19 D: "If neither army has won after 10 turns, roll one D6. The result is the
        number of turns left till darkness": the battle's clock is the rule set's, not the
        scenario's ``turns``. Until the die is rolled darkness may fall as any of the six
        turns after the tenth ends; then as the one it gives."""
        g = game_data(state)
        if g.darkness_in is not None:
            last = g.turn_limit + g.darkness_in
            return LastTurn(last, last, f"Darkness falls as turn {last} ends: after turn {g.turn_limit} "
                                        f"a D6 gave {plural(g.darkness_in, 'turn')} more (section 19 D).")
        return LastTurn(g.turn_limit + min(DARKNESS_DIE.values()),
                        g.turn_limit + max(DARKNESS_DIE.values()),
                        f"Darkness falls after turn {g.turn_limit}, a D6 then giving the turns left "
                        "till it does (section 19 D).")

    def standing(self, state: GameState, side_names: Mapping[str, str]) -> tuple[str, ...]:
        """Each side with points: the objectives it occupies and the vital points it keeps,
        against what a victory by them asks (19 C)."""
        tables = tables_of(state)
        return tuple(f"{side_names.get(side, side)}: {standing(state, side, tables)}."
                     for side in state.sides if points.places(state, side))

    def command_label(self, state: GameState, command: str, side: str | None = None) -> str | None:
        """A tertia by its card's name ("Horse (Oliver Cromwell)"): ``side``'s when given,
        else the side to act's first."""
        if side is not None:
            return tertia_label_in(state, command, side)
        return tertia_label_in(state, command, state.to_act) or tertia_label_in(state, command, None)


def _figures_note(own: CypUnit) -> str | None:
    """What the count of figures holds besides those in the ranks: those lost, and the
    dragoons holding the horses."""
    notes = ([f"{own.lost} lost"] if own.lost else []) + (
        [f"{own.holders} holding the horses"] if own.holders else [])
    return ", ".join(notes) or None


def _grade(grade: Any) -> str:
    """An officer's value as his card shows it: on a side's view of an enemy officer not
    yet called on (section 22), only that it is not shown."""
    if is_hidden(grade):
        return NOT_SHOWN
    return humanise(str(grade)) if grade else NOT_ROLLED
