"""One-click unsubscribe: a signed token in every mail names the player and the topic to turn
off, needing no login and never expiring."""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from accounts.models import Preferences, User
from accounts.services import preferences_update

from ..errors import GameError

UNSUBSCRIBE_SALT = "games.notifications.unsubscribe"


# Short, so that the List-Unsubscribe header stays one unencoded word (Python's email encodes a
# word longer than a line, and mail clients then cannot read the address).
TOPIC_LETTERS = {"turn_mail": "t", "reminders": "r", "invitations": "i", "game_over": "g"}


def _token_mac(payload: str) -> str:
    return salted_hmac(UNSUBSCRIBE_SALT, payload, algorithm="sha256").hexdigest()[:20]


def unsubscribe_token(user: User, topic: str) -> str:
    """'<user id>.<topic letter>.<80-bit HMAC>': a proof needing no login, and no expiry."""
    payload = f"{user.pk}.{TOPIC_LETTERS[topic]}"
    return f"{payload}.{_token_mac(payload)}"


def unsubscribe_read(token: str) -> tuple[User, str] | None:
    """The player and topic a token from an email names, or None if it is not ours."""
    payload, _dot, mac = (token or "")[:80].rpartition(".")
    user_id, _dot, letter = payload.partition(".")
    topics = {letter: topic for topic, letter in TOPIC_LETTERS.items()}
    if not constant_time_compare(mac, _token_mac(payload)) or letter not in topics:
        return None
    user = User.objects.filter(pk=int(user_id), is_bot=False).first() if user_id.isdigit() else None
    return (user, topics[letter]) if user else None


def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off what the token's email was about (no login: the signed token is the proof)."""
    found = unsubscribe_read(token)
    if found is None:
        raise GameError(_("This unsubscribe link is not valid."), status=404)
    user, topic = found
    off = Preferences.TurnMail.OFF if topic == "turn_mail" else False
    preferences_update(user=user, **{topic: off})
    return user, topic
