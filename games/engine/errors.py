"""The engine's one error: an action the rules forbid, told in words a player can read, and the
marker that lets the app translate those words without the engine importing Django."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Marks a message for translation (Django's makemessages finds it by this name) without
    importing Django: the app translates RuleError.template and fills in RuleError.params."""
    return message


class RuleError(Exception):
    """An action the rules forbid; the message is for the player and names the rule.
    `template` is the untranslated message with %(name)s places, `params` fill them."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)
