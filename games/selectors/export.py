"""Everything the site holds about a player, for "Download my data": their account (no password),
preferences, vacations, the games they played with each player's result, their own moves and chat
messages, their rating history, their invitations and the players they follow. No hand of any
game: finished games' cards are in the replay, and a game in play's are secret. A move names its
card, a card the player drew from the stock included: they held it."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import F, Prefetch, Q

from accounts.models import PushSubscription, User, Vacation
from accounts.selectors import preferences_of
from accounts.services import PREFERENCE_FIELDS

from ..models import ChatMessage, Follow, Invitation, Move, RatingChange, Seat
from ..ratings import display_rating

ACCOUNT_FIELDS = (
    "username",
    "display_name",
    "email",
    "first_name",
    "last_name",
    "time_zone",
    "language",
    "date_joined",
    "last_login",
)


def _when(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _game(seat: Seat) -> dict[str, Any]:
    game = seat.game
    return {
        "id": game.pk,
        "status": game.status,
        "created_at": _when(game.created_at),
        "started_at": _when(game.started_at),
        "finished_at": _when(game.finished_at),
        "end_reason": game.end_reason or None,
        "seat": seat.index,
        "resigned": seat.resigned,
        "dropped": seat.dropped,
        "players": [
            {
                "seat": other.index,
                "name": other.user.name,
                "final_score": other.final_total,
                "rank": other.final_rank,
            }
            for other in game.seats.all()
        ],
    }


def _own_moves(user: User) -> list[dict[str, Any]]:
    """The moves the player made at their seats; not a bot's or the autopilot's for them."""
    moves = Move.objects.filter(
        game__seats__user=user, game__seats__index=F("seat"), by_bot=False
    ).order_by("game_id", "seq")
    return [
        {
            "game": move.game_id,
            "seq": move.seq + 1,  # as the move history numbers it
            "round": move.round_index + 1,
            "type": move.record["type"],
            "source": move.record["source"],
            "card": move.record["card"],
            "at": _when(move.created_at),
        }
        for move in moves.only("game_id", "seq", "round_index", "record", "created_at")
    ]


def player_data(user: User) -> dict[str, Any]:
    preferences = preferences_of(user)
    seats = (
        Seat.objects.filter(user=user)
        .select_related("game")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("index"))
        )
        .order_by("game_id")
    )
    invitations = (
        Invitation.objects.filter(Q(invitee=user) | Q(invited_by=user))
        .select_related("invited_by", "invitee")
        .order_by("created_at", "pk")
    )
    return {
        "account": {
            field: _when(value) if field in ("date_joined", "last_login") else value
            for field in ACCOUNT_FIELDS
            for value in [getattr(user, field)]
        },
        "preferences": {
            **{field: getattr(preferences, field) for field in PREFERENCE_FIELDS},
            "vacation_days_per_year": preferences.vacation_days_per_year,
        },
        "vacations": [
            {"starts_at": _when(v.starts_at), "ends_at": _when(v.ends_at)}
            for v in Vacation.objects.filter(user=user).order_by("starts_at")
        ],
        "push_devices": [
            {"endpoint": device.endpoint, "created_at": _when(device.created_at)}
            for device in PushSubscription.objects.filter(user=user).order_by("pk")
        ],
        "games": [_game(seat) for seat in seats],
        "moves": _own_moves(user),
        "chat_messages": [
            {"game": message.game_id, "text": message.text, "at": _when(message.created_at)}
            for message in ChatMessage.objects.filter(author=user).order_by("created_at", "pk")
        ],
        "ratings": [
            {
                "game": change.game_id,
                "finished_at": _when(change.finished_at),
                "rank": change.rank,
                "mu_before": change.mu_before,
                "sigma_before": change.sigma_before,
                "mu_after": change.mu_after,
                "sigma_after": change.sigma_after,
                "rating_after": display_rating(change.ordinal_after),
            }
            for change in RatingChange.objects.filter(user=user).order_by("finished_at", "game_id")
        ],
        "invitations": [
            {
                "game": invitation.game_id,
                "direction": "received" if invitation.invitee_id == user.pk else "sent",
                "host": invitation.invited_by.name,
                "invited_as": invitation.invited_as
                if invitation.invited_by_id == user.pk
                else None,
                "status": invitation.status,
                "created_at": _when(invitation.created_at),
                "answered_at": _when(invitation.answered_at),
            }
            for invitation in invitations
        ],
        "following": [
            {"name": follow.followee.name, "since": _when(follow.created_at)}
            for follow in Follow.objects.filter(follower=user)
            .select_related("followee")
            .order_by("created_at", "pk")
        ],
    }
