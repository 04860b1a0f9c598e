"""One battle as a PettingZoo AEC environment: the research API.

The agents are the scenario's sides, and the one to act (``agent_selection``) is the side
the game awaits (``GameState.to_act``), a pending decision included. The action is an
index into the side's candidates at this decision (:mod:`tertia.research.candidates`), the
observation a fixed-size vector of the side's own view (:mod:`tertia.research.observation`)
with the mask of the indices that hold a candidate. See docs/api.md, "A PettingZoo
environment".

What happens when a chosen candidate is illegal on the true position: a candidate is
judged on the side's view with its secrets sampled, and applied to the true position. The
rule sets that hide values declare that their secrets never bear on legality
(``RuleSet.HIDDEN_NEVER_JUDGED``), so the two judgements agree and this cannot happen. Were
a rule set to break that promise, the environment would raise :class:`CandidateRefused`,
leaving the battle as it was and saying nothing of the rules' reasons (they may name what
is hidden): it never quietly plays something else, which would tell the side as much.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from tertia.battle import MAX_ACTIONS, dice_seed
from tertia.core.actions import Action
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.hidden import view_of
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.research.candidates import Candidates, candidates_for
from tertia.research.observation import ObservationLayout, encode
from tertia.research.telling import Telling
from tertia.rulesets import get_ruleset
from tertia.scenarios.catalogue import default_scenario, load_named

try:
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # pragma: no cover - the extra is not installed
    raise ImportError("the research environment needs PettingZoo: "
                      "pip install 'tertia[research]'") from missing

Observation = dict[str, npt.NDArray[Any]]


class CandidateRefused(RuntimeError):
    """The true position refused an action its side's view allowed (see the module's
    docstring). The battle is left as it was."""


class TertiaEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no types
    """One battle of ``scenario`` (a name in the catalogue or a :class:`Scenario`; the rule
    set's default battle when None) under the rule set ``rules`` with rule ``options``.

    ``max_candidates``: K, the size of the action space (``Discrete(K)``); a decision
    offering more keeps the first K. ``max_actions``: the battle is truncated after this
    many actions. ``max_pieces``: the piece slots of the observation (default: the pieces
    the battle deploys). ``render_mode="ansi"``: :meth:`render` returns the last
    ``render_lines`` lines of the battle's narrative, as ``render_side`` may read them
    (None: every event).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "tertia_v0",
                                          "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "larger-battles",
        scenario: str | Scenario | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        max_candidates: int = 64,
        max_actions: int = MAX_ACTIONS,
        max_pieces: int | None = None,
        render_mode: str | None = None,
        render_lines: int = 20,
        render_side: str | None = None,
    ) -> None:
        super().__init__()
        if max_candidates < 1 or max_actions < 1:
            raise ValueError("max_candidates and max_actions must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']} or None")
        ruleset = get_ruleset(rules, **dict(options or {}))
        if not isinstance(scenario, Scenario):
            scenario = load_named(scenario or default_scenario(rules), rules_id=rules)
        self.game = Game(ruleset, scenario)
        self.layout = ObservationLayout.for_game(self.game, max_pieces)
        self.max_candidates = max_candidates
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.render_lines = render_lines
        self.render_side = render_side
        self.possible_agents: list[str] = list(self.game.deployed().sides)
        if render_side is not None and render_side not in self.possible_agents:
            raise ValueError(f"render_side {render_side!r}: one of {self.possible_agents} or None")
        low, high = self.layout.bounds()
        observed = spaces.Dict({
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(max_candidates,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, observed)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(max_candidates))
        self._seeds = random.Random()
        self.battle_seed = 0
        self.dice = SeededDice(dice_seed(self.battle_seed))
        self.agents: list[str] = []
        self._state: GameState | None = None
        self._offered: Candidates | None = None
        self._telling: Telling | None = None
        self.actions_taken = 0

    # --- the PettingZoo API ---------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Begin the battle afresh. With ``seed``, the battle of that seed: its dice are
        those :func:`tertia.battle.fight_battle` rolls with the same seed, and its
        candidates are drawn from streams of that seed too, so the same seed gives the
        same battle. Without, the next seed of a stream begun at the last seed given.

        ``options``: ``{"state": GameState}`` starts from that position (a full state of
        this battle, not a side's view) instead of the opening; other keys are ignored."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.battle_seed = seed
        else:
            self.battle_seed = self._seeds.getrandbits(63)
        self.dice = SeededDice(dice_seed(self.battle_seed))
        start = (options or {}).get("state")
        if start is None:
            state, events = self.game.start(self.dice)
        else:
            state, events = self._checked_start(start), []
        self._telling = Telling(self.game, self.render_lines, self.render_side) if self.render_mode else None
        if self._telling is not None:
            self._telling.tell(events)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.actions_taken = 0
        self._state, self._offered = state, None
        self._settle()

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Take candidate number ``action`` of the side to act (None for a side whose battle
        is over, as PettingZoo asks). An index the mask does not mark raises ValueError."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a side whose battle is over")
        offered = self._candidates_now()
        index = int(action)
        if not 0 <= index < len(offered.actions):
            raise ValueError(f"candidate {index} is not offered to {agent}: "
                             f"{len(offered.actions)} are (see the action mask)")
        self._play(agent, offered.actions[index])

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation, made from its own view alone, and its action mask
        (all zeros unless it is to act)."""
        view = self.game.observed_state(self._current(), agent)
        mask = np.zeros(self.max_candidates, dtype=np.int8)
        if self._acting(agent):
            mask[: len(self._candidates_now().actions)] = 1
        return {"observation": encode(self.game, view, agent, self.layout), "action_mask": mask}

    def render(self) -> str | None:
        """The last lines of the battle's narrative (``render_mode="ansi"``)."""
        if self._telling is None:
            logger.warn("render() needs render_mode='ansi'")
            return None
        return self._telling.text()

    def close(self) -> None:
        """Nothing to release."""

    # --- beyond PettingZoo ----------------------------------------------------------------

    def candidates(self, agent: str | None = None) -> tuple[Action, ...]:
        """The actions the indices of ``agent``'s action mask stand for (the side to act
        when None): index ``i`` is ``candidates()[i]``; empty for a side not to act."""
        agent = self.agent_selection if agent is None else agent
        return self._candidates_now().actions if self._acting(agent) else ()

    def step_action(self, action: Action) -> None:
        """Take ``action``, any action of the rule set's, for the side to act. It is judged
        on that side's view (its secrets sampled, as for the candidates), and refused there
        with :class:`~tertia.core.violations.IllegalAction`, the battle left as it was."""
        agent = self.agent_selection
        if not self._acting(agent):
            raise ValueError(f"{agent}'s battle is over: step(None) is all it may do")
        violations = self.game.validate(self._candidates_now().playable, action)
        if violations:
            raise IllegalAction(violations)
        self._play(agent, action)

    @property
    def game_state(self) -> GameState:
        """The true position, every side's secrets in it: for a referee or for analysis,
        never to be shown to an agent."""
        return self._current()

    # --- inside ---------------------------------------------------------------------------

    def _current(self) -> GameState:
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    def _acting(self, agent: str) -> bool:
        return (agent == self.agent_selection and agent in self.terminations
                and not (self.terminations[agent] or self.truncations[agent]))

    def _candidates_now(self) -> Candidates:
        """The side to act's candidates, made once a position."""
        if self._offered is None:
            state = self._current()
            self._offered = candidates_for(self.game, state, state.to_act, self.battle_seed,
                                           self.max_candidates)
        return self._offered

    def _checked_start(self, state: Any) -> GameState:
        if not isinstance(state, GameState) or view_of(state) is not None:
            raise ValueError("options['state'] must be a full GameState, not a side's view")
        if tuple(state.sides) != tuple(self.possible_agents):
            raise ValueError(f"options['state'] is a battle of {state.sides}, not of {self.possible_agents}")
        return state

    def _play(self, agent: str, action: Action) -> None:
        state = self._current()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        # The rules' reasons are dropped before anything is raised: they may name a secret.
        try:
            after, events = self.game.apply(state, action, self.dice)
        except IllegalAction:
            after = None
        if after is None:
            raise CandidateRefused(f"the rules judged {agent}'s action legal on its view and not on the "
                                   f"true position; the battle is left as it was")
        self._state, self._offered = after, None
        self.actions_taken += 1
        if self._telling is not None:
            self._telling.tell(events)
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """After the opening or an action: who is to act, or how the battle ended."""
        state = self._current()
        self.agent_selection = state.to_act if state.to_act in self.agents else self.agents[0]
        if state.is_over:
            result = state.result or {}
            winner = result.get("winner")
            for agent in self.agents:
                self.rewards[agent] = 0.0 if winner is None else (1.0 if agent == winner else -1.0)
                self.terminations[agent] = True
                self.infos[agent] = {"winner": winner, "reason": result.get("reason"),
                                     "score": result.get("score")}
        elif self.actions_taken >= self.max_actions:
            self._truncate(f"the battle did not end within {self.max_actions} actions")
        elif not self._candidates_now().actions:
            self._truncate(f"no candidate action for {self.game.side_names[state.to_act]}")

    def _truncate(self, reason: str) -> None:
        for agent in self.agents:
            self.truncations[agent] = True
            self.infos[agent] = {"winner": None, "reason": reason, "score": None}


def env(**kwargs: Any) -> TertiaEnv:
    """A :class:`TertiaEnv` (PettingZoo's naming): ``env(rules="d3-cards", scenario="chalgrove")``."""
    return TertiaEnv(**kwargs)
