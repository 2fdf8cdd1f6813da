"""Why an action was refused. Every refusal names the rule it enforces and its reason."""

from __future__ import annotations

from app.reasons import Param, Reason, Refusal

# The old form, a bare English text, until every raise names its reason (issue #25).
_UNNAMED = Reason("unnamed", "{text}", "That move is not allowed.")


class RuleError(Refusal):
    """An action the rules do not allow: ``rule`` is its RULES.md id ("R14")."""

    def __init__(self, rule: str, reason: Reason | str, **params: Param) -> None:
        if isinstance(reason, str):
            text = reason
            reason, params = _UNNAMED, {"text": text}
        super().__init__(reason, params)
        self.rule = rule
        self.args = (f"{rule}: {reason.english(self.params)}",)
        if reason is _UNNAMED:
            self.params = {}


class NotOffered(RuleError):
    """The action is not one the current phase offers (the API answers 409)."""


class IllegalMove(RuleError):
    """The phase offers this kind of action, but not this one (the API answers 422)."""
