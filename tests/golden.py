"""Golden transcripts: whole AI-against-AI battles, written out line by line and kept in
``tests/golden/``, so that any change to how a rule set plays shows as a reviewed diff.
Both sides are played by the doctrine's first edition (the ``baseline`` player), so that
a later edition of the doctrine leaves them as they are: they pin the rules.

Every registered rule set (the example plugin's too, :mod:`tests.plugin_rules`) fights
every scenario of the catalogue written for it, built in or shipped by a rule set
(:mod:`tertia.scenarios.catalogue`), with the seeds in :data:`SEEDS`. A transcript holds
the rule set (id, version, options), each action with the side that took it, every event
it caused (dice rolls carry their purpose, distribution and value), the hash of the
canonical projection of the state after each action (the same wherever a rule set keeps
its values), the result and the final state hash.

Regenerate them after an intended change with ``make golden`` (which runs
``python -m tests.golden``), read the diff, and name the change in the commit and in the
rule set's changelog (``docs/rulesets/<id>.md``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tertia.ai.doctrine import BaselinePlayer
from tertia.battle import BattleRecord, fight_battle
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import load_named, scenario_catalogue
from tests.plugin_rules import with_plugins

GOLDEN_DIR = Path(__file__).parent / "golden"
SEEDS = (1, 2, 3)


@dataclass(frozen=True)
class GoldenCase:
    """One pinned battle: a scenario of the catalogue, a rule set it is written for, a seed."""

    scenario: str
    rules: str
    seed: int

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / self.rules / f"{self.scenario}-seed{self.seed}.txt"

    @property
    def id(self) -> str:
        return f"{self.rules}-{self.scenario}-{self.seed}"


def golden_cases() -> list[GoldenCase]:
    """Every registered rule set, with the plugins', on every scenario written for it,
    three seeds each."""
    with with_plugins():
        catalogue = scenario_catalogue()
        return [
            GoldenCase(sc.name, rules, seed)
            for rules in ruleset_ids()
            for sc in catalogue
            if rules in sc.rules
            for seed in SEEDS
        ]


def fight(case: GoldenCase) -> BattleRecord:
    with with_plugins():
        game = Game(get_ruleset(case.rules), load_named(case.scenario))
        players = {side: BaselinePlayer() for side in game.scenario.side_ids}  # pins the rules
        return fight_battle(game, players, case.seed)


def _line(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(", ", ": "))


def _event_lines(events: Iterable[Event]) -> list[str]:
    return [f"  {_line(e.to_dict())}" for e in events]


def transcript(case: GoldenCase, record: BattleRecord) -> str:
    """The battle as text: a header, then each action followed by its events."""
    ruleset = record.game.ruleset
    lines = [
        f"# golden transcript: {case.rules} {ruleset.version}, scenario {case.scenario}, seed {case.seed}",
        "# regenerate with `make golden`; a change here is a change in play",
        f"options {_line(dict(ruleset.options))}",
        "start",
        *_event_lines(record.start_events),
    ]
    for number, step in enumerate(record.steps, 1):
        lines.append(f"action {number} {step.side} {_line(step.action.to_dict())}")
        lines.extend(_event_lines(step.events))
        lines.append(f"  state {step.state.state_hash()}")
    final = record.final_state
    lines.append(f"result {_line(dict(final.result or {}))}")
    lines.append(f"final_hash {final.state_hash()}")
    return "\n".join(lines) + "\n"


def render(case: GoldenCase) -> str:
    return transcript(case, fight(case))


def regenerate(cases: Iterable[GoldenCase]) -> list[Path]:
    """Write each case's transcript; returns the files whose text changed."""
    changed = []
    for case in cases:
        text = render(case)
        path = case.path
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
            changed.append(path)
    return changed


def main(argv: list[str]) -> int:
    """``python -m tests.golden [RULES ...]``: rewrite the transcripts (of the named rule
    sets only, if any are named) and list the files that changed."""
    wanted = set(argv)
    with with_plugins():
        known = set(ruleset_ids())
    unknown = wanted - known
    if unknown:
        print(f"unknown rule set: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    cases = [c for c in golden_cases() if not wanted or c.rules in wanted]
    changed = regenerate(cases)
    for path in changed:
        print(f"changed: {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    print(f"{len(cases)} transcripts, {len(changed)} changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
