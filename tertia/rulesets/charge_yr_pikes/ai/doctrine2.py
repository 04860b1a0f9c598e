"""The doctrine for Charge yr Pikes!, second edition: the ``doctrine`` player since it
beat the first, which stays the ``baseline`` (``tertia ladder``). The first edition's general
(:mod:`~tertia.rulesets.charge_yr_pikes.ai.doctrine`) with these changes of judgement.

- **Squares** only against horse that could actually charge the foot as things stand:
  its way to them clear of other pieces, the charge ending on the table, and its swing
  and run within its charge move (Close combat 12 A; Movement 5 B); and foot in line
  form one only if that charge would pay the horse (its outlook, below, at least what
  horse ask of a charge at foot), while a square stays formed against any horse that
  could charge it. The first edition formed square against any enemy horse within 32", a
  horse's charge move, which covers most of the table, so its foot stood in square all
  battle at half their move; the test of reach alone still left one order in five of foot
  within 8" of enemy foot spent in square or changing formation (self-play at Edgehill).
- **Through friends.** Units "can move freely through friendly units as long as they do
  not end their move intermingled" (Formations C): where friends in the way cut a unit's
  advance to less than half its move, it goes straight through them when that takes it
  nearer its goal, so a second line comes up through a first that has halted instead of
  standing at its back (before it, a fifth of this edition's foot orders moved nothing at
  all, most for a friend in the way).
- **Charges** weighed by what they are expected to come to
  (:func:`~tertia.rulesets.charge_yr_pikes.ai.outlook.charge_outlook`): the defenders'
  fire as the charger halts (canister from a battery, a volley from musketeers), the
  tests to close and after the fire, the close combat's exact chances on the dice of both
  sides, a battery's supporters within 4" fighting for it (section 10), and the loser's
  test, each unit valued at its share of its army (19 D). Horse and foot alike charge
  the foe in reach worth most, when the share of the enemy they expect to take
  outweighs the share of their own they risk (foot even a little short of it,
  :data:`FOOT_CHARGE`, to end a firefight); horse against horse only with a clear
  edge (:data:`HORSE_AGAINST_HORSE`: such a fight is near even and its loser spent),
  and against foot with a smaller one (:data:`HORSE_AGAINST_FOOT`). Musketeers weigh a
  charge against standing to fire: the fire they would take where they stand, and the
  test it brings, are no cost of it, the volley they would give up is. The first
  edition's horse charged any gun ("a gun does not fight back") whatever canister and
  foot stood by it, and foot charged only a shaken foe. Foot charging foot at a worse
  outlook was measured and refused: charging down to -0.03 of the army brought a third
  of the foot to close combat but won 0.43 of 200 paired battles against this edition.
  So was foot clearing a lane for a charge worth making that a friend in front barred
  (three in four such charges at Edgehill), by coming up beside the friend or stepping
  aside: foot regiments in a close combat 16.9% -> 19.1% (seeds 1-200), even against
  this edition, but against the random player as Parliament at Edgehill 184 wins of 200
  where this edition wins 193. So was pressing when behind: from turn 6, a side with the
  larger share of casualties (19 D) charging at the least worth whatever charged what,
  and sending its troops for the objectives: 0.47 of 200 paired games against this
  edition at Edgehill and at Naseby, and still no Naseby battle decided.
- **Horse out of shot.** Horse lose most of their men to fire, and a unit worn under half
  its strength tests each turn and leaves the field failing (the 50% rules): in 40
  battles of the second edition against itself at Edgehill, before these rules, fire
  took 2,170 horse figures (musketry seven tenths, canister nearly a fifth), close combat
  560; of the fire in the first 20, two fifths hit horse charging, a quarter horse
  standing within reach and a quarter horse that had just advanced into it. Horse that
  wait on enemy foot (no charge worth making) draw back beyond the muskets' 12" long
  range (Musketry), where the first edition stood them to be shot; where the straight
  way back is barred (friends close behind, the tertia's bounds) or stops short in shot,
  they step back obliquely or sideways (:data:`BACK_HEADINGS`) to where no musket
  reaches. Horse advancing with nothing to charge stop short of where a battery's
  canister (9: 12", heavy 15") or enemy muskets after a move of their own (foot that
  move fire in the moving fire step, Sequence of play E) could reach them, in front of
  the firer (:func:`in_shot`): their 32" charge move still reaches from there.
- **Objectives taken once the enemy takes fright.** An army that has taken fright (15 L)
  is past holding its ground: from then on the side sends a whole tertia to each of its
  objectives (the nearest free tertia to each, its troops in good order, neither guns nor
  a vital point's guards), since occupying all three while keeping two vital points wins
  the battle (19 C), and "no unit may leave its tertia" (4 A): a lone regiment sent on
  stops 6" from its mates. On its card the tertia goes forward by leaps, the regiment
  farthest from the objective first, each ending ahead of the rest, and through friends
  in its way (Formations C). A regiment so sent charges a foe that holds its objective or
  bars its straight way there at a worse outlook than it would otherwise take
  (:data:`TAKING_CHARGE`): the battle the point would win is worth more than the figures.
  And a regiment so sent that did nothing on its card looks again once a friend has
  acted, since a friend's move or charge may have cleared its way. Measured in self-play,
  seeds 1-100, against sending the two nearest regiments each: battles decided on
  objectives 23 -> 30 at Edgehill and 0 -> 2 at Naseby (every regiment looking again,
  sent or not, decided 39 and 3, but cost 1.6 times the baseline's decision, over the
  budget of 1.5; no regiment looking again, 29 and 3). The first edition made for an
  objective only with no enemy within 18", and so decided fewer than one Edgehill battle
  in five. Tried and
  refused: horse charging horse at the least worth once the enemy has taken fright (33 and
  4 decided, and horse lost a battle, those that got off the board in the pursuit
  counted, 7.40 -> 7.95 at Edgehill and 5.80 -> 6.98 at Naseby); regiments sent
  charging any foe in reach at that outlook, not only one in their way (41 and 3 decided,
  but horse lost 7.43 and 6.27, so counted); and sending tertias that no enemy is near
  from turn 8 (Naseby, 20 battles: none more decided).
- **Led to the objectives.** A tertia sent to an objective crawled: each regiment must end
  within 6" of a mate (4 A) and the officers' 8" radius held the rest to their officer,
  who rode behind them, so a tertia went an inch or two a turn, foot 4" at best. A unit
  may leave its tertia "accompanied by a general" (4 A): the brigadier or wing commander
  of a tertia so sent (never the army's general) joins the front rank of the regiment of
  it the fewest of its own moves from the objective (:func:`_taking_lead`), which then
  goes on alone at its full move, through friends as need be, no other officer's radius
  holding it back (:func:`_led_on`). And horse so sent, jammed among friends before enemy
  horse, neither going on nor charging (a friend stood in every charge they could make:
  12 A), stood so to the end of the battle; a regiment sent that can go no nearer its
  objective steps, without turning, to where its charge at the foe barring its way is
  clear (:func:`_clear_lane`), forward first, where a friend behind bars its turn. In
  Naseby battles, seeds 1-20, the orders of regiments so sent that did nothing on their
  card fell from 317 to 131 (of 870 and 742). Measured, seeds 1-100: battles decided on
  objectives 30 -> 37 at Edgehill and 0 -> 4 at Naseby; horse lost a battle 7.13 -> 6.90
  and 5.72 -> 6.20 (the baseline 10.26 and 11.68).
- **Unopposed.** With no enemy troops left on the table (routed, or off it plundering), a
  regiment sent to an objective or guarding a vital point still goes to its post
  (:meth:`CypDoctrine2._unopposed`), where the first edition, finding no foe to measure
  itself against, gave no order at all, and its tertias stood idle to darkness beside an
  objective nobody held (Edgehill, seed 8, turns 14-16). Measured in self-play, seeds
  1-100: battles decided 38 -> 48 at Edgehill and 4 -> 4 at Naseby; horse lost a battle
  6.93 -> 6.97 and 6.19 -> 6.19.
- **Objectives held together.** A side occupies an objective while a regiment of its own
  in good order stands within 3" of it (19 C, ``hold_within``): objectives each within
  that of their midst are one post, their midst, where one regiment holds them all
  (:func:`objective_posts`), and one tertia is sent there, where the first tertias went
  one to each (Edgehill's baggage at Kineton and the Kineton road, 6.4" apart; Naseby's
  Royalist baggage and the Sibbertoft road, 2.9"), so a tertia is free for the third.
  Measured in self-play, seeds 1-200 at Edgehill: battles decided on objectives 100 ->
  104, horse lost a battle 6.79 -> 6.67 (the baseline 10.22); at Naseby, seeds 1-100,
  3 -> 2 and 5.85 -> 5.78; against the baseline (`tertia ladder`, both battles) 0.71 ->
  0.72; against the random player as Parliament at Edgehill (seed 2110) 189 -> 190 wins
  of 200.
- **An enemy beaten on the field.** An army tests for fright only on a D10 (15 L): under a
  fifth of its figures lost it cannot take fright but for its vital points, and a side
  that had laid low far more of the enemy than it lost still waited on the enemy's dice
  before it went for the objectives, so that a battle against the random player won by
  nine to one in figures went to darkness with every objective untaken. A side now sends
  its tertias for the objectives as it does once the enemy has taken fright when the
  enemy's share of its figures off the table (the count of 15 L) stands above its own by
  the bound of a tactical victory (19 F: 10%, :data:`BEATEN_AT`;
  :func:`beaten_on_the_field`). Measured in self-play, seeds 1-200 at Edgehill: battles
  decided on objectives 104 -> 120, horse lost a battle 6.67 -> 6.64 (the baseline
  10.22; seeds 201-400, measured after: 98 -> 108 and 6.61 -> 6.97, the baseline
  10.24, the pursuit of the battles decided taking more of the beaten side's horse); at
  Naseby, seeds 1-100, 2 -> 6 and 5.78 -> 6.53 (the baseline 11.68); against
  the baseline (`tertia ladder`, both battles) 0.72 -> 0.71; against the random player
  as Parliament at Edgehill (seed 2110) 190 -> 193 wins of 200. Tried beside it: a lead
  of 5 points (Naseby 6 decided, as 10), of 15 (Edgehill, seeds 201-400: 97 decided,
  6.82 horse lost) and of 20 (Naseby 2); and no horse sent on the lead alone, foot only
  till the enemy takes fright: horse lost 6.45 and 6.78 at Edgehill (seeds 1-200 and
  201-400, decided 106 and 111), but Naseby 3 decided.
- **The baggage ridden down.** The wagons hold no point (19 C) but stand on one: the
  baggage train is one of its side's vital points (19 B) and, most often, among the
  enemy's objectives, and troops cannot end a move on them. The first edition never
  charged the wagons, so troops sent to an objective where they stood halted short of it
  to darkness (Naseby, against the random player: Parliament's horse sent to the Royalist
  baggage and the Sibbertoft road stood 7" off them for four turns). A regiment sent to an
  objective charges wagons on it or on its straight way there (:func:`bars_the_way`), as
  it would any foe there; charged as guns are, they rout unless a friend within 4" fights
  for them (section 10). Measured: battles decided on objectives at Naseby against the
  random player, seeds 1-60, 5 -> 16 as Parliament and 18 -> 18 as the Royalists; in
  self-play, seeds 1-100 at Naseby, 6 -> 7, horse lost a battle 6.53 -> 6.44; seeds
  1-200 at Edgehill, 120 -> 119 and 6.64 -> 6.72.
- **The free move to the objectives.** The free move (Sequence of play) goes to a
  tertia that failed its response this turn, else to the one nearest the enemy; once
  tertias are sent to the objectives it goes to one of them, one that failed its
  response first, else the one farthest from its objective, since the battle is won only
  when every objective is occupied at once (19 C) and the last tertia to arrive decides
  when. Measured in self-play: battles decided on objectives at Naseby 7 -> 11 (seeds
  1-100) and 3 -> 6 (101-200), at Edgehill 55 -> 63 and 64 -> 64; horse lost a battle at
  Naseby 6.44 -> 6.30 and 5.55 -> 5.88, at Edgehill 6.71 -> 6.56 and 6.73 -> 6.66;
  against the random player at Naseby, seeds 1-60, 16 -> 22 as Parliament and 18 -> 20
  as the Royalists. Tried and refused (seeds 1-100), each spending horse past the
  third the doctrine must save: the free tertias left after one to each objective sent
  too, each to its nearest post (before this change: Naseby 7 -> 9, Edgehill 55 -> 61,
  horse lost at Edgehill 7.59), foot tertias only (7, 59, 6.90) or each to the post
  whose enemy most outweighs those sent (7, 56, 6.88); and, with this change, going for
  the objectives on a lead of 5 points (a marginal victory) instead of
  :data:`BEATEN_AT` (Naseby 12, Edgehill 65, horse lost 7.92 and 7.07).
- **Enemy officers passed.** An officer in no unit's front rank is never in an enemy's way
  (4 F: a move that would cover him moves him to safety), but the first edition's moves
  were planned as though every piece barred them, so a regiment beside a lone enemy
  officer stood still (Naseby, seed 1: Skippon alone beside a regiment of Royalist horse
  sent to Mill Hill held it, and the foot of its tertia behind it, for three turns). The
  advance, the march to a post and the move through friends are planned past them
  (``passing`` :func:`~tertia.rulesets.charge_yr_pikes.attached.lone_enemy_officers`).
  Measured in self-play: battles decided on objectives at Naseby 11 -> 10 (seeds 1-100)
  and 6 -> 10 (101-200), at Edgehill 63 -> 64 and 64 -> 64; horse lost a battle at Naseby
  6.30 -> 6.43 and 5.88 -> 5.88, at Edgehill 6.56 and 6.66 unchanged; against the random
  player at Naseby, seeds 1-60, decided 22 -> 24 as Parliament and 20 -> 24 as the
  Royalists; against the baseline (`tertia ladder`, both battles) 0.71 -> 0.73.
- **Vital points retaken.** Each vital point the enemy holds adds one to the army's roll
  for fright (15 L), and under a fifth of its figures lost an army takes fright only so.
  A foe holding one of the side's vital points (:func:`on_lost_point`) is charged at
  :data:`TAKING_CHARGE`, as one barring the way to an objective; and horse plundering
  at the baggage train, who "if attacked by enemy ... fight as disordered" (Plunder C),
  are foes like any other, where the first edition left them be. In a battle against
  the random player at Edgehill a Royalist regiment of horse plundering at Parliament's
  baggage held it and the Kineton road, two vital points, from turn 5 to darkness while
  the guards stood by, and Parliament's army took fright at 11% of its figures lost.
  Measured: against the random player as Parliament at Edgehill (seed 2110), 186 -> 189
  wins of 200; in self-play, seeds 1-100, battles decided on objectives 30 -> 30 at
  Edgehill and 2 -> 0 at Naseby, horse lost a battle 6.97 -> 7.13 and 5.41 -> 5.72.
- **A beaten army's horse held back.** Once an army has taken fright (15 L) it tests
  again at the end of every turn, and each fright lowers by one the morale of every unit
  that has lost men and routs those it brings to 1: horse of such an army that charge
  lose men, and are lost at a later fright. They charge only a foe holding one of their
  side's vital points (:func:`on_lost_point`: each one held adds to the roll for fright),
  and otherwise wait, out of shot, as horse with no charge worth making do; they threaten
  still (:func:`held_back_horse`), and make no step to clear a charge
  (:func:`_clear_lane`). Measured in self-play, seeds 1-200 at Edgehill: horse lost a
  battle 7.21 -> 6.79 (the baseline 10.22: a cut of 29.5% -> 33.6%), battles decided on
  objectives 99 -> 100; at Naseby, seeds 1-100, 6.19 -> 5.85 and 4 -> 3; against the
  baseline (`tertia ladder`, both battles) 0.71 as before; against the random player as
  Parliament at Edgehill, 386 -> 382 wins of 400 (two sets of 200 seeds). Tried beside
  it, measured without the step: horse that had lost no men still charging (6.99 lost
  at Edgehill, seeds 1-100, where holding back every regiment lost 6.56); horse sent to
  an objective still charging a foe barring their way (6.90, seeds 1-200); a charge with
  the clear edge asked of horse against horse (:data:`HORSE_AGAINST_HORSE`), or any once
  the enemy has taken fright too (191 and 193 wins of 200 against random, seeds
  1000-1199, where holding back wins 193).
- **Officers in front when a test matters.** On the Officers & Artillery card a
  brigadier (or staff officer) at large rides up to the regiment of his command nearest
  the enemy, horse or foot in good order with no officer in its front rank, once an enemy
  is within its charge move, and joins its front rank (Glossary, IN THE FRONT
  RANK): his bonus to its morale tests and close combat dice (4 E; Special rules A), and
  horse with an officer in front need not test whether they flinch into mounted fire
  before 1645 (Special rules C). The army's general and the wing commanders stay at large
  to command.
- **Tried for Naseby and refused.** At Naseby the first army takes fright by turn 8 in a
  third of the battles (at Edgehill in three in four), and a battle decided there took 5
  to 11 turns from its victor's first sending (``benchmarks/pikes_play.py``). Each of
  these was measured in self-play, seeds 1-100 (against Naseby 10 decided, Edgehill 64,
  horse lost 6.43 and 6.56): tertias sent so that the last to reach its objective does so
  soonest, reckoned in its fastest regiment's moves, rather than the nearest pair first
  (Naseby 6, Edgehill 58, horse lost 6.43 and 7.10); a foe barring the way charged down
  to -0.03 (9, 64); the wing commander riding ahead of a sent tertia's regiments left out
  of its leading officer's radius, who test "without officer" (9, 62); foot charging down
  to :data:`TAKING_CHARGE` once the enemy has taken fright (10, 62); and horse within
  their charge move of the enemy never crossing ground that disorders them (Disorder:
  disordered horse make no charge), as Rupert's did at Sulby Hedges under Okey's fire
  (Naseby 14, 8 and 8 over seeds 1-100, 101-200 and 201-300 against 10, 10 and 13; horse
  lost 7.44), with or without a regiment that cannot clear its charge by a step turning
  to face the foe as well (no change). Nor does sending sooner reach far: a tertia to each
  objective from turn 1, whatever the enemy's state, decided 14 (horse lost 14.74); from
  turn 4, 19 and 12 over seeds 1-100 and 101-200 (12.31 and 12.66); every free tertia
  from turn 4, 19 (14.58); tertias sent on any lead in casualties (not only a tactical
  victory's) from turn 7, 12 (8.34; Edgehill 64, 6.90), and from turn 5, 17 (9.15;
  Edgehill 69, 6.93), each spending more horse than a third below the baseline's allows.
  Each objective is an enemy vital point, and Parliament's Dust
  Hill is where the Royalist reserve stands: Parliament held it in 4 battles of 100
  (``benchmarks/pikes_play.py``), its other two in 14 and 16.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tertia.ai.moves import ENEMY_CLEARANCE, advance_towards, free_run
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.geometry import Point, base_distance, bearing, point_segment_distance
from tertia.core.state import GameState, Unit
from tertia.rules.nearest import NearestFirst
from tertia.rulesets.charge_yr_pikes.actions import Charge, GiveFreeMove, JoinFrontRank
from tertia.rulesets.charge_yr_pikes.ai.doctrine import (
    LEAST_GAIN,
    CypDoctrine,
    _foes,
    _guard_post,
    _guards,
    _move_to,
    _officer_of,
    bearing_away,
    failed_response,
    move_away,
    point_holders,
)
from tertia.rulesets.charge_yr_pikes.ai.outlook import charge_outlook, firers_at, halt_ahead_of
from tertia.rulesets.charge_yr_pikes.army import ArmyLosses, counted_units, fright_losses, has_taken_fright
from tertia.rulesets.charge_yr_pikes.artillery import reach_of
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, lone_enemy_officers, touching
from tertia.rulesets.charge_yr_pikes.cards import tertias
from tertia.rulesets.charge_yr_pikes.charge import CAVALRY
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path, surely_barred
from tertia.rulesets.charge_yr_pikes.command import in_command_radius
from tertia.rulesets.charge_yr_pikes.data import SQUARE, CypUnit
from tertia.rulesets.charge_yr_pikes.front_rank import lead_bar, touches
from tertia.rulesets.charge_yr_pikes.movement import allowance, charge_allowance
from tertia.rulesets.charge_yr_pikes.musketry import has_muskets
from tertia.rulesets.charge_yr_pikes.points import OBJECTIVE, VITAL, Place, holder, in_good_order, places
from tertia.rulesets.charge_yr_pikes.points import reach as reach_to
from tertia.rulesets.charge_yr_pikes.tables import Tables, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

LEAST_WORTH = 0.002
"""Horse charge a battery only when the charge is expected to take this much more of the
enemy's army (as a share of its figures) than it risks of their own: about a figure in an
army of 500. Foot ask less (:data:`FOOT_CHARGE`), horse against troops more."""


FOOT_CHARGE = -0.003
"""Foot charge when the charge is expected to come to at least this (a little below
even: about a figure and a half in an army of 500 against): their charges end the
firefights in which foot wear each other down at 6", and a foot regiment is the
enemy's slowest to come again once it gives way. Measured in self-play, seeds 1-100,
against 0.002 (:data:`LEAST_WORTH`): foot regiments charged or charging (benchmarks/
pikes_play.py) 30.3% -> 33.4% at Edgehill and 32.3% -> 40.7% at Naseby, battles decided
on objectives 32 -> 31 and 0 -> 1; against the doctrine asking 0.002, 0.530 and 0.487 of
200 paired games (neither side of even). 0 gave 32.5% and 35.7% (0.515, 0.495); -0.005,
37.3% and 45.2% but 24 decided at Edgehill; -0.03, measured before, lost."""

HORSE_AGAINST_FOOT = 0.005
"""Horse charge foot (not a battery) only when the charge is expected to come to this
much (about two and a half figures in an army of 500): horse held back still threaten,
keeping foot in square at half their move, while horse spent on a charge that barely pays
are lost to the army (measured against 0.002 and 0.01 in self-play at Edgehill: with the
squares and moves of this edition, horse lost a battle 8.2 -> 6.8 and 6.9, foot
regiments in a close combat 20% -> 19% and 16%)."""

HORSE_AGAINST_HORSE = 0.02
"""Horse charge horse only when the charge is expected to come to this much (about ten
figures in an army of 500): such a fight is near even, the loser is spent, and horse held
back still threaten (measured against 0.002: horse lost a battle fell by a third to a half
and the doctrine beat the first edition by more; against 0.01 in self-play at Edgehill,
seeds 1-200: horse lost a battle 7.8 -> 6.9, a third fewer than the first edition's 10.6,
and battles decided on objectives 21% -> 18%, within the noise of 200 battles). Measured
again against 0.01 with the second edition's later rules, seeds 1-100: battles decided
64 -> 62 at Edgehill and 10 -> 4 at Naseby, horse lost a battle 6.56 -> 7.11 and 6.43 ->
7.92: more horse fights made the armies take fright no sooner."""

TAKING_CHARGE = -0.01
"""Troops sent to take an objective charge a foe that holds it or bars their way to it
(:func:`bars_the_way`), and any troops a foe holding one of their side's vital points
(:func:`on_lost_point`), at this worth: the point is worth more than the figures."""

HOLDING = 4.0
"""Inches from an objective within which a foe's base counts as holding it (19 C's 3" and
an inch to spare)."""

FRONT_RANK_RANKS = ("brigadier", "staff")
"""The officers who take a front rank; the general and wing commanders command at large."""

OUT_OF_SHOT = 0.5
"""Inches beyond the muskets' long range that waiting horse draw back to."""

STEP_UP = 10.0
"""The most an advance by horse reckons enemy muskets may close before they fire (the
firer's own normal move, at most this: musketeers 10", foot 8"). Measured in self-play
at Edgehill (100 battles) against stopping only out of the muskets' reach as they stand:
horse lost a battle 7.26 -> 6.49, foot regiments in a close combat 16.7% -> 17.8%."""

SHORTER_OUT_OF_SHOT = (0.75, 0.5, 0.25)
"""Fractions of an advance tried to keep horse out of shot."""

BACK_HEADINGS = (0.0, -45.0, 45.0, -90.0, 90.0)
"""Degrees off straight away from the muskets that horse drawing back may head."""

BACK_PARTS = (1.0, 0.5, 0.25)
"""Fractions of its move that horse drawing back try, longest first."""

THROUGH_PARTS = (1.0, 0.75, 0.5)
"""Fractions of its move tried for a move through friends, the longest first."""

TEST_NEAR = 1.0
"""A regiment faces a test soon once an enemy is within this many of its charge moves
(measured against 1.5: the officers joined too early and fell more often)."""
BEATEN_AT = "tactical"
"""The degree of victory (19 F) by whose bound an enemy that has lost more of its army
than the side stands beaten on the field, only not yet by its own dice for fright: the
side sends its troops for the objectives as it does once the enemy has taken fright
(:func:`beaten_on_the_field`). Counted by the figures off the table that fright counts
(15 L); counted as darkness would (19 D), self-play at Edgehill, seeds 1-100, lost
6.87 horse a battle where this count loses 6.67, and decided 3 Naseby battles of 100
where it decides 6."""


class CypDoctrine2(CypDoctrine):
    """Plays either side of Charge yr Pikes! (see the module's docstring)."""

    stand_to_fire = 6.0

    def _charge_call(self, game: Game, state: GameState, unit: Unit, foes: NearestFirst, tables: Tables
                     ) -> Charge | None:
        """The charge worth most among the foes it could reach as things stand (the way
        clear, the charge ending on the table, within its charge move: 12 A, Movement 5 B),
        if one is worth making: at :data:`TAKING_CHARGE` a foe barring the way to the
        objective it is sent to or holding one of its side's vital points, else at its
        least worth (:func:`_least_worth`)."""
        own = unit_data(unit)
        if own.troop == "dragoons" or own.disordered:  # as the first edition: these make no charge
            return None
        ranked: list[tuple[float, str]] = []
        reach = charge_allowance(tables, own)
        goal = objective_takers(state, unit.side).get(unit.id)
        held_back = held_back_horse(state, unit)
        for foe in foes.within(reach):
            theirs = unit_data(foe)
            if theirs.is_officer:
                continue
            barring = goal is not None and bars_the_way(unit, foe, goal)
            if theirs.troop == "wagons" and not barring:
                continue
            retaking = on_lost_point(state, foe)
            if held_back and not retaking:
                continue
            if not could_charge(game, state, unit, foe, reach):
                continue  # barred, or it would tire before it closed: most foes, and cheaper asked
            worth = charge_outlook(game, state, unit, foe, tables, halt_ahead_of(unit, foe)).worth
            barring = barring or retaking
            if worth >= (TAKING_CHARGE if barring else _least_worth(own, theirs)):
                ranked.append((-worth, foe.id))
        for _, foe_id in sorted(ranked):
            charge = Charge(unit=unit.id, target=foe_id)
            if game.is_legal(state, charge):
                return charge
        return None

    def _post(self, state: GameState, unit: Unit) -> Point | None:
        """A vital point it guards, else an objective it is sent to take once the enemy
        army has taken fright (:func:`objective_takers`)."""
        return _guard_post(state, unit) or objective_takers(state, unit.side).get(unit.id)

    def _unopposed(self, game: Game, state: GameState, unit: Unit, tables: Tables) -> Action | None:
        """With no enemy troops left on the table, troops still go to their post (a
        vital point they guard, an objective they are sent to): occupying the objectives
        wins the battle (19 C), where the first edition stood idle to darkness."""
        post = self._post(state, unit)
        return None if post is None else self._at_post(game, state, unit, post, tables)

    def _to_post(self, game: Game, state: GameState, unit: Unit, post: Point, tables: Tables) -> Move | None:
        """The first edition's move to its post, or through friends in the way where they
        cut it short (:func:`_through_friends`); a regiment led to an objective at its full
        move (:func:`_led_on`), and one sent there that can go no nearer stepping clear of
        friends barring its charge (:func:`_clear_lane`)."""
        sent = objective_takers(state, unit.side).get(unit.id) == post
        led = sent and bool(front_rank_officers(state, unit.id))
        move = _led_on(game, state, unit, post, tables) if led else _move_to(
            game, state, unit, post, tables, passing=lone_enemy_officers(state, unit.side))
        if _cut_short(unit, move, post, tables):
            move = _through_friends(game, state, unit, post, tables, move, held=not led) or move
        if move is None and sent:
            return _clear_lane(game, state, unit, post, tables)
        return move

    def _threatens(self, game: Game, state: GameState, horse: Unit, foot: Unit, reach: float,
                   tables: Tables) -> bool:
        """Horse call for a square only if they could charge the foot as things stand
        (:func:`could_charge`); and foot in line form it only if that charge would pay
        the horse (its :func:`charge_outlook` at least their least worth), while a square
        stays formed against any horse that could charge it."""
        if not could_charge(game, state, horse, foot, reach):
            return False
        if unit_data(foot).formation == SQUARE:
            return True
        outlook = charge_outlook(game, state, horse, foot, tables, halt_ahead_of(horse, foot))
        return outlook.worth >= _least_worth(unit_data(horse), unit_data(foot))

    @staticmethod
    def _free_move(state: GameState) -> Action:
        """Once tertias are sent to the objectives (:func:`objective_takers`), the free
        move goes to one of them: one that failed its response this turn, else the one
        farthest from its post (19 C asks every objective at once); before, the first
        edition's choice."""
        side = state.to_act
        takers = objective_takers(state, side)
        if not takers:
            return CypDoctrine._free_move(state)
        sent: dict[str, list[Unit]] = {}
        for unit_id in takers:
            unit = state.units[unit_id]
            sent.setdefault(unit.command, []).append(unit)
        drawn = set(game_data(state).deck_drawn)
        keys = [(0 if failed_response(tertia, side, sent[tertia], drawn) else 1,
                 -min(math.dist((u.x, u.y), takers[u.id]) for u in sent[tertia]), tertia)
                for tertia in tertias(state, side) if tertia in sent]
        return GiveFreeMove(tertia=min(keys)[2]) if keys else CypDoctrine._free_move(state)

    def _order(self, game: Game, state: GameState, unit: Unit) -> Action | None:
        """The first edition's order, save that an officer at large takes a front rank
        where a test is near (see the module's note)."""
        if unit_data(unit).is_officer:
            led = _to_lead(state, unit)
            if led is not None:
                return _join_or_ride(game, state, unit, led)
        return super()._order(game, state, unit)

    def _wait(self, game: Game, state: GameState, unit: Unit, foes: NearestFirst, tables: Tables
              ) -> Action | None:
        """Horse waiting on enemy foot draw back out of their muskets' reach (Musketry:
        12" long range), straight away from the nearest, rather than stand to be shot."""
        if unit_data(unit).troop not in CAVALRY:
            return None
        reach = tables.musketry.long_range + OUT_OF_SHOT
        shooters = [e for e in foes.within(reach) if has_muskets(unit_data(e)) and in_good_order(e)]
        if not shooters:
            return None
        away = move_away(game, state, unit, shooters, tables)
        if away is None or in_shot(state, unit, away.waypoints[-1], tables):
            return _step_back(game, state, unit, shooters, tables) or away
        return away

    def _advance(self, game: Game, state: GameState, unit: Unit, goal: Point, tables: Tables) -> Move | None:
        """The first edition's advance, planned past enemy officers at large, never in
        its way (4 F); and horse advance no further than keeps them out of shot (see the
        module's note): a move that would end within reach of enemy muskets or canister is
        cut short where it stays out (the longest of :data:`SHORTER_OUT_OF_SHOT` the rules
        accept), else not made."""
        move = _move_to(game, state, unit, goal, tables, passing=lone_enemy_officers(state, unit.side))
        if _cut_short(unit, move, goal, tables):
            move = _through_friends(game, state, unit, goal, tables, move) or move
        if move is None or unit_data(unit).troop not in CAVALRY or not move.waypoints:
            return move
        end = move.waypoints[-1]
        if not in_shot(state, unit, end, tables, stepping_up=True):
            return move
        for part in SHORTER_OUT_OF_SHOT:
            spot = (unit.x + (end[0] - unit.x) * part, unit.y + (end[1] - unit.y) * part)
            shorter = Move(unit=unit.id, waypoints=(spot,), face_before=move.face_before)
            if not in_shot(state, unit, spot, tables, stepping_up=True) and game.is_legal(state, shorter):
                return shorter
        return None

    def _looks_again(self, state: GameState, idle: Unit, actor: Unit) -> bool:
        """A regiment sent to an objective that did nothing on its card looks again once a
        friend has acted: the friend's move or charge may have cleared its way."""
        return idle.id in objective_takers(state, state.to_act)

    def _in_turn(self, state: GameState, moving: tuple[str, ...]) -> Sequence[str]:
        """Troops sent to an objective move the farthest from it first, so each may end
        ahead of the mates it must keep within 6" of (4 A) and the tertia goes forward by
        turns, as a column of leaps; the rest as the card lists them."""
        takers = objective_takers(state, state.to_act)
        if takers.keys().isdisjoint(moving):
            return moving
        # keys worked out in a loop, not a nested function: compiled, a closure's frame and
        # the function hold each other, garbage only the cycle collector frees
        keyed: list[tuple[int, float, int, str]] = []
        for i, unit_id in enumerate(moving):
            unit = state.units.get(unit_id)
            if unit_id in takers and unit is not None:
                keyed.append((0, -math.dist((unit.x, unit.y), takers[unit_id]), i, unit_id))
            else:
                keyed.append((1, 0.0, i, unit_id))
        return [unit_id for *_, unit_id in sorted(keyed)]

    def _follow_up(self, game: Game, state: GameState, unit_id: str) -> Action | None:
        """An officer who rode up to a regiment joins its front rank."""
        officer = state.units.get(unit_id)
        if officer is None or not unit_data(officer).is_officer:
            return None
        led = _to_lead(state, officer)
        return None if led is None or not touches(officer, led) else JoinFrontRank(officer.id, led.id)


def in_shot(state: GameState, unit: Unit, at: Point, tables: Tables, *, stepping_up: bool = False) -> bool:
    """Would ``unit`` standing at ``at`` be within :data:`OUT_OF_SHOT` of the reach of an
    enemy's muskets (Musketry: 12" long range) or a battery's canister (9: 12" or 15"),
    in front of the firer (the outlook's :data:`~.outlook.ARC`)? ``stepping_up``: the
    muskets' reach after a normal move of theirs (foot that move fire in the moving fire
    step, Sequence of play E). Routed, falling back and plundering enemies give no fire."""
    base = unit.base.moved_to(at[0], at[1])
    long_range = tables.musketry.long_range
    step = STEP_UP if stepping_up else 0.0
    farthest = max(long_range + step, *tables.artillery.canister_range.values()) + OUT_OF_SHOT + base.radius
    for enemy in firers_at(state, unit.side, at, farthest):
        theirs = unit_data(enemy)
        if theirs.is_gun:
            reach = float(reach_of(enemy, "canister", tables))
        else:
            closes = min(STEP_UP, allowance(tables, theirs, on_road=False) or 0.0) if stepping_up else 0.0
            reach = long_range + closes
        if base_distance(enemy.base, base) <= reach + OUT_OF_SHOT:
            return True
    return False


def _step_back(game: Game, state: GameState, unit: Unit, threats: list[Unit], tables: Tables) -> Move | None:
    """Where :func:`move_away` finds no way out of shot (friends close behind, the tertia's
    bounds), a move back without turning that ends out of shot: along one of
    :data:`BACK_HEADINGS` off straight away from ``threats``, the longest of
    :data:`BACK_PARTS` of the unit's move the rules accept; None when there is none."""
    away = bearing_away(unit, threats)
    reach = allowance(tables, unit_data(unit), on_road=False) or 0.0
    for turn in BACK_HEADINGS:
        heading = math.radians(away + turn)
        for part in BACK_PARTS:
            spot = (unit.x + math.sin(heading) * reach * part, unit.y + math.cos(heading) * reach * part)
            if in_shot(state, unit, spot, tables):
                continue
            move = Move(unit=unit.id, waypoints=(spot,))
            if game.is_legal(state, move):
                return move
    return None


def bars_the_way(unit: Unit, foe: Unit, goal: Point) -> bool:
    """Does ``foe`` stand on ``unit``'s straight way to ``goal`` (its base within the
    corridor the unit's base would sweep), or on the goal itself (within
    :data:`HOLDING` of it)?"""
    if math.dist((foe.x, foe.y), goal) <= HOLDING + foe.base.radius:
        return True
    reach = unit.base.radius + foe.base.radius
    return point_segment_distance((foe.x, foe.y), (unit.x, unit.y), goal) <= reach


def held_back_horse(state: GameState, unit: Unit) -> bool:
    """Is ``unit`` horse of an army that has taken fright (15 L), which charge only a foe
    holding one of its vital points (see the module's note)?"""
    return unit_data(unit).troop in CAVALRY and has_taken_fright(state, unit.side)


def on_lost_point(state: GameState, foe: Unit) -> bool:
    """Does ``foe`` stand within :data:`HOLDING` of a vital point of its enemy's that its
    side holds (15 L: each one lost adds to the enemy's roll for fright)?"""
    lost = lost_points(state, state.opponent(foe.side))
    return any(math.dist((foe.x, foe.y), spot) <= HOLDING + foe.base.radius for spot in lost)


def lost_points(state: GameState, side: str) -> tuple[Point, ...]:
    """Where ``side``'s vital points are that the enemy holds (15 L); worked out once a
    position and side."""
    key = ("cyp doctrine lost points", side)
    found: tuple[Point, ...] | None = state.cache.get(key)
    if found is None:
        tables = tables_of(state)
        enemy = state.opponent(side)
        found = state.cache[key] = tuple((p.x, p.y) for p in places(state, side, VITAL)
                                         if holder(state, p, tables) == enemy)
    return found


def could_charge(game: Game, state: GameState, unit: Unit, target: Unit, reach: float) -> bool:
    """Could ``unit`` charge ``target`` as things stand: nothing in its way, the charge
    ending on the table, its swing and run within ``reach`` (12 A; Movement 5 B)? Most
    foes are barred by a piece straight ahead, which the cheap test finds
    (:func:`~tertia.rulesets.charge_yr_pikes.charge_path.surely_barred`)."""
    if surely_barred(state, unit, target):
        return False
    path = charge_path(game.table, state, unit, target)
    return path.blocked_by is None and not path.off_table and path.length <= reach


def _led_on(game: Game, state: GameState, unit: Unit, goal: Point, tables: Tables) -> Move | None:
    """A regiment with an officer in its front rank, sent to an objective, goes towards it
    at its full move (:func:`_taking_lead`): no other officer's radius holds it back."""
    reach = allowance(tables, unit_data(unit), on_road=False) or 0.0
    if reach <= 0.0:
        return None
    return advance_towards(game, state, unit, goal, reach, least=LEAST_GAIN,
                           ahead=bearing((unit.x, unit.y), goal),
                           passing=lone_enemy_officers(state, unit.side))


def _clear_lane(game: Game, state: GameState, unit: Unit, goal: Point, tables: Tables) -> Move | None:
    """A regiment sent to an objective that can neither go on towards it nor charge the
    foe barring its way, friends standing in its charge (12 A: "the attacker may not
    charge through" a piece in the way), steps, without turning, to where the charge
    would be clear: the shortest of :data:`LANE_STEPS`, along the first of
    :data:`LANE_HEADINGS` the rules accept, for the barring foe its
    charge would take most of (at least :data:`TAKING_CHARGE`); None when there is
    none. Horse jammed among friends before enemy horse otherwise stand there to the
    end of the battle."""
    own = unit_data(unit)
    if own.troop == "dragoons" or own.disordered or held_back_horse(state, unit):
        return None
    reach = charge_allowance(tables, own)
    ranked: list[tuple[float, str]] = []
    for foe in _foes(state, unit).within(reach):
        theirs = unit_data(foe)
        if theirs.is_officer or not bars_the_way(unit, foe, goal):
            continue
        if charge_path(game.table, state, unit, foe).blocked_by is None:
            continue  # not friends in the way: the charge call has weighed it
        worth = charge_outlook(game, state, unit, foe, tables, halt_ahead_of(unit, foe)).worth
        if worth >= TAKING_CHARGE:
            ranked.append((-worth, foe.id))
    if not ranked:
        return None
    step = allowance(tables, own, on_road=False) or 0.0
    for _, foe_id in sorted(ranked):
        foe = state.units[foe_id]
        for inches in LANE_STEPS:
            if inches > step:
                break
            for turn in LANE_HEADINGS:
                heading = math.radians(unit.facing + turn)
                spot = (unit.x + math.sin(heading) * inches, unit.y + math.cos(heading) * inches)
                stepped = unit.evolve(x=spot[0], y=spot[1])
                # judged in the position as it stands: a charge's path never meets the
                # charger's own piece, so where it stood before the step is no matter
                path = charge_path(game.table, state, stepped, foe)
                if path.blocked_by is not None or path.off_table or path.length > reach:
                    continue
                move = Move(unit=unit.id, waypoints=(spot,))
                if game.is_legal(state, move):
                    return move
    return None


LANE_STEPS = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
"""Inches a regiment sent to an objective tries to step aside to clear its charge."""

LANE_HEADINGS = (0.0, 45.0, -45.0, 90.0, -90.0, 135.0, -135.0)
"""Degrees off its facing a regiment steps to clear its charge: forward (where a friend
behind it bars its turn to the foe), obliquely, to either side, else back and aside."""


def _cut_short(unit: Unit, move: Move | None, goal: Point, tables: Tables) -> bool:
    """Does ``move`` (None: no move) go less than half the unit's move, with ``goal``
    further off than that?"""
    half = (allowance(tables, unit_data(unit), on_road=False) or 0.0) / 2
    if math.dist((unit.x, unit.y), goal) <= half:
        return False
    return move is None or not move.waypoints or math.dist((unit.x, unit.y), move.waypoints[-1]) < half


def _through_friends(game: Game, state: GameState, unit: Unit, goal: Point, tables: Tables,
                     instead: Move | None = None, *, held: bool = True) -> Move | None:
    """A move straight towards ``goal`` through friends in the way (Formations C: "Units
    can move freely through friendly units as long as they do not end their move
    intermingled"), stopping short of the enemy: the longest of :data:`THROUGH_PARTS` of
    the unit's move that the rules accept, if it ends at least
    :data:`~.doctrine.LEAST_GAIN` nearer ``goal`` than the unit, or than ``instead`` (the
    move round them) would, and, as every advance, within its officer's command radius
    where it is in it now (not so when not ``held``: one led by an officer in its front
    rank); None otherwise, or when no friend is in the way. So a second
    line behind a first that has halted comes up through it, rather than to its back."""
    reach = allowance(tables, unit_data(unit), on_road=False) or 0.0
    span = math.dist((unit.x, unit.y), goal)
    if instead is not None and instead.waypoints:
        span = min(span, math.dist(instead.waypoints[-1], goal))
    if reach <= 0.0 or span < LEAST_GAIN:
        return None
    gap = math.dist((unit.x, unit.y), goal)
    way = ((goal[0] - unit.x) / gap, (goal[1] - unit.y) / gap)
    radius = reach + unit.base.radius + ENEMY_CLEARANCE
    passing = lone_enemy_officers(state, unit.side)
    enemies = [e for e in state.near(unit.x, unit.y, unit.x, unit.y, radius)
               if e.side != unit.side and e.id not in passing]
    run = min(reach, gap, free_run(state, unit, way, reach, among=enemies))
    if free_run(state, unit, way, run) >= run - LEAST_GAIN:
        return None  # no friend in the way
    officer = _officer_of(state, unit)
    keep = held and officer is not None and in_command_radius(officer, unit)
    for part in THROUGH_PARTS:
        inches = run * part
        end = (unit.x + way[0] * inches, unit.y + way[1] * inches)
        if math.dist(end, goal) > span - LEAST_GAIN:
            break
        if keep and officer is not None and not in_command_radius(officer, unit, end):
            continue  # as every advance, within its officer's radius where it can
        move = Move(unit=unit.id, waypoints=(end,))
        if game.is_legal(state, move):
            return move
    return None


def _least_worth(own: CypUnit, theirs: CypUnit) -> float:
    """The least a charge must be expected to come to: for foot a little below even
    (:data:`FOOT_CHARGE`); for horse more against horse, and against foot."""
    if own.troop not in CAVALRY:
        return FOOT_CHARGE
    if theirs.troop in CAVALRY:
        return HORSE_AGAINST_HORSE
    return LEAST_WORTH if theirs.is_gun else HORSE_AGAINST_FOOT


def _front_rank_for(state: GameState, officer: Unit) -> Unit | None:
    """The regiment whose front rank ``officer`` should take now, if any: of those he
    commands and can reach this move, horse or foot in good order without an officer in
    front, the nearest the enemy, once an enemy is within :data:`TEST_NEAR` of its charge
    moves."""
    own = unit_data(officer)
    if own.rank not in FRONT_RANK_RANKS or own.attached_to is not None:
        return None
    tables = tables_of(state)
    reach = allowance(tables, own, on_road=False) or 0.0
    best: tuple[float, str] | None = None
    for unit in state.near(officer.x, officer.y, officer.x, officer.y, reach + officer.base.radius):
        theirs = unit_data(unit)
        if (unit.is_commander or theirs.is_gun or theirs.troop == "dragoons" or not in_good_order(unit)
                or lead_bar(state, officer, unit) is not None or front_rank_officers(state, unit.id)
                or base_distance(officer.base, unit.base) > reach):
            continue
        near = next((gap for _, gap in _foes(state, unit).pairs_within(
            TEST_NEAR * charge_allowance(tables, theirs))), None)
        if near is not None and (best is None or (near, unit.id) < best):
            best = (near, unit.id)
    return None if best is None else state.units[best[1]]


def _to_lead(state: GameState, officer: Unit) -> Unit | None:
    """The regiment whose front rank ``officer`` should take now: one he leads to an
    objective (:func:`_taking_lead`), else one facing a test soon (:func:`_front_rank_for`)."""
    return _taking_lead(state, officer) or _front_rank_for(state, officer)


def _taking_lead(state: GameState, officer: Unit) -> Unit | None:
    """The regiment an officer at large (not the army's general) leads once his tertia is
    sent to an objective (:func:`objective_takers`): of its troops so sent with no officer
    in front, the one the fewest of its own moves from its objective (horse go 16", foot
    4"). A unit may not leave its tertia "unless accompanied by a general" (Tertias and
    officers 4 A): so led, it goes on alone at its full move, where the tertia, each unit
    within 6" of another and within its officer's 8" radius, goes forward an inch or two
    a turn."""
    own = unit_data(officer)
    if own.attached_to is not None or own.rank == "army":
        return None
    takers = objective_takers(state, officer.side)
    tables = tables_of(state)
    best: tuple[float, str] | None = None
    for unit in state.iter_troops(officer.side):
        goal = takers.get(unit.id)
        if goal is None or unit.command != officer.command or front_rank_officers(state, unit.id):
            continue
        if unit_data(unit).troop == "dragoons" or lead_bar(state, officer, unit) is not None:
            continue
        pace = max(1.0, allowance(tables, unit_data(unit), on_road=False) or 0.0)
        moves = math.dist((unit.x, unit.y), goal) / pace
        if best is None or (moves, unit.id) < best:
            best = (moves, unit.id)
    return None if best is None else state.units[best[1]]


def _join_or_ride(game: Game, state: GameState, officer: Unit, led: Unit) -> Action | None:
    """Join ``led`` if touching it, else ride to its rear, touching it, or as far
    towards there as his move goes."""
    if touches(officer, led):
        return JoinFrontRank(officer.id, led.id)
    spot = touching(led.base, officer.base.moved_to(led.x, led.y))  # behind it
    reach = allowance(tables_of(state), unit_data(officer), on_road=False) or 0.0
    if math.dist((officer.x, officer.y), (spot.x, spot.y)) <= reach:
        return Move(unit=officer.id, waypoints=((spot.x, spot.y),))
    return advance_towards(game, state, officer, (spot.x, spot.y), reach, arc=180.0, least=LEAST_GAIN)


def objective_takers(state: GameState, side: str) -> dict[str, Point]:
    """Once the enemy army has taken fright (15 L) or stands beaten on the field
    (:func:`beaten_on_the_field`), the troops ``side`` sends to take its objectives
    (19 C), each by the point it goes to: a whole tertia to each, since "no unit may leave
    its tertia" (4 A), the nearest pair of free tertia and objective first (a tertia's
    distance its nearest regiment's); a tertia's troops in good order, neither guns,
    wagons nor a vital point's guards; none before. Worked out once a position and side."""
    key = ("cyp doctrine takers", side)
    found: dict[str, Point] | None = state.cache.get(key)
    if found is not None:
        return found
    found = state.cache[key] = {}
    if not (has_taken_fright(state, state.opponent(side)) or beaten_on_the_field(state, side)):
        return found
    guards = {g for _, posted in _guards(state, side) for g in posted}
    by_tertia: dict[str, list[Unit]] = {}
    for u in point_holders(state, side):
        if u.id not in guards:
            by_tertia.setdefault(u.command, []).append(u)
    pairs = sorted((min(reach_to(u, p) for u in units), tertia, p.name, (p.x, p.y))
                   for p in objective_posts(state, side) for tertia, units in by_tertia.items())
    sent: set[str] = set()
    used: set[str] = set()
    for _, tertia, name, spot in pairs:
        if tertia in used or name in sent:
            continue
        used.add(tertia)
        sent.add(name)
        for u in by_tertia[tertia]:
            found[u.id] = spot
    return found


def beaten_on_the_field(state: GameState, side: str) -> bool:
    """Has the enemy lost so much more of its army than ``side`` (each army's share of its
    figures off the table, as its morale counts them: 15 L) that ``side`` leads by the
    bound of a tactical victory (19 F: 10% higher, :data:`BEATEN_AT`)?"""
    tables = tables_of(state)
    lead = next(bound for bound, name in tables.victory.degrees if name == BEATEN_AT)
    mine, theirs = army_losses(state, side, tables), army_losses(state, state.opponent(side), tables)
    # theirs.percent - mine.percent >= lead, in whole numbers (each asked every decision)
    their_lost, their_all = (theirs.lost, theirs.strength) if theirs.strength else (0, 1)
    my_lost, my_all = (mine.lost, mine.strength) if mine.strength else (0, 1)
    return 100 * (their_lost * my_all - my_lost * their_all) >= lead * their_all * my_all


def army_losses(state: GameState, side: str, tables: Tables) -> ArmyLosses:
    """``side``'s casualties as its army's morale counts them (15 L: :func:`fright_losses`),
    remembered with what they were counted from (the values of every piece counted, and
    whether it is in play, and the tables), and counted again only when one of those
    differs: asked at every decision, they change only when a unit loses men or leaves (an
    officer, whose value a player's view draws anew, is not counted)."""
    values: list[CypUnit] = []
    gone: list[str | None] = []
    for u in counted_units(state, side, tables):
        values.append(unit_data(u))
        gone.append(u.removed)
    last = _COUNTED.get(side)
    if last is not None and last[0] is tables and last[1] == values and last[2] == gone:
        return last[3]
    found = fright_losses(state, side, tables)
    _COUNTED[side] = (tables, values, gone, found)
    return found


_COUNTED: dict[str, tuple[Tables, list[CypUnit], list[str | None], ArmyLosses]] = {}
"""Each side's casualties last counted (:func:`army_losses`), with what they were counted from."""


def objective_posts(state: GameState, side: str) -> list[Place]:
    """Where ``side`` sends its troops to occupy its objectives (19 C): one post for
    objectives so near each other that a regiment standing between them holds them all
    (each within ``hold_within`` of their midst: Edgehill's baggage at Kineton and the
    Kineton road, Naseby's Royalist baggage and the Sibbertoft road), at their midst and
    named by their names; else each objective is its own post."""
    within = tables_of(state).victory.hold_within
    groups: list[list[Place]] = []
    for place in places(state, side, OBJECTIVE):
        for group in groups:
            joined = [*group, place]
            midst = _midst(joined)
            if all(math.dist((p.x, p.y), midst) <= within for p in joined):
                group.append(place)
                break
        else:
            groups.append([place])
    return [_post(group) for group in groups]


def _post(group: Sequence[Place]) -> Place:
    """One post for ``group``'s objectives: at their midst, named by their names (a lone
    objective is its own post)."""
    x, y = _midst(group)
    return group[0]._replace(name=" and ".join(p.name for p in group), x=x, y=y)


def _midst(group: Sequence[Place]) -> Point:
    """The centre of ``group``'s points."""
    return (sum(p.x for p in group) / len(group), sum(p.y for p in group) / len(group))
