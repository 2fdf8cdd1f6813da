"""Why an action was refused. Every refusal names the rule it enforces and its reason."""

from __future__ import annotations

from app.reasons import Param, Reason, Refusal


class RuleError(Refusal):
    """An action the rules do not allow: ``rule`` is its RULES.md id ("R14"), ``reason``
    what it says (app/reasons.py), formatted from ``params``."""

    def __init__(self, rule: str, reason: Reason, **params: Param) -> None:
        super().__init__(reason, params)
        self.rule = rule
        self.args = (f"{rule}: {self.args[0]}",)


class NotOffered(RuleError):
    """The action is not one the current phase offers (a service refuses it as a conflict)."""


class IllegalMove(RuleError):
    """The phase offers this kind of action, but not this one (refused as an illegal move)."""
