"""Refusals the API sends: an HTTP status with ``{"code", "message", "rule"}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tertia.core.violations import Violation


class ServiceError(Exception):
    """A request the game service refuses; ``rule`` names the rule behind a refusal."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        rule: str | None = None,
        violations: Sequence[Violation] = (),
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        self.violations = tuple(violations)
        self.extra = dict(extra or {})

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message, "rule": self.rule}
        if self.violations:
            body["violations"] = [v.to_dict() for v in self.violations]
        body.update(self.extra)
        return body


def illegal(violations: Sequence[Violation]) -> ServiceError:
    """409 for an action the rules forbid, led by its first reason."""
    first = violations[0]
    return ServiceError(409, first.code, first.message, first.rule, violations)


def not_found(what: str) -> ServiceError:
    return ServiceError(404, "NOT_FOUND", f"there is no {what}")
