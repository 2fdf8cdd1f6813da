"""Why an action was refused. Every message names the rule it enforces."""


class RuleError(Exception):
    """An action the rules do not allow."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule


class NotOffered(RuleError):
    """The action is not one the current phase offers (the API answers 409)."""


class IllegalMove(RuleError):
    """The phase offers this kind of action, but not this one (the API answers 422)."""
