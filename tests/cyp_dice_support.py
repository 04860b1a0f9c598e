"""Scripted dice by purpose, for Charge yr Pikes! tests that run through whole phases: the
rolls a test is about are scripted by what they are for; every other roll takes a fixed
face, so the test does not depend on how many dice the rest of the phase rolls."""

from __future__ import annotations

from tertia.core.dice import DiceDivergence, Distribution, Roll

Face = int | str
"""A face, or "max" / "min": the distribution's highest or lowest value."""


class ByPurpose:
    """``script`` maps a part of a roll's purpose to the faces it gives, in turn; a
    roll no entry matches (or whose entry is used up) takes ``otherwise``."""

    def __init__(self, script: dict[str, list[Face]] | None = None, otherwise: Face = "min") -> None:
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.otherwise = otherwise
        self.log: list[Roll] = []

    def roll(self, dist: Distribution, purpose: str) -> int:
        face: Face = self.otherwise
        for start, faces in self.script.items():
            if start in purpose and faces:
                face = faces.pop(0)
                break
        value = max(dist.values()) if face == "max" else min(dist.values()) if face == "min" else face
        if value not in dist:
            raise DiceDivergence(f"scripted {value} is not a face of {dist.name} ({purpose})")
        self.log.append(Roll(purpose, dist.name, int(value)))
        return int(value)

    def rolled(self, start: str) -> list[int]:
        """The faces rolled for purposes containing ``start``."""
        return [r.value for r in self.log if start in r.purpose]
