"""Bringing players to a game: invitations by name or email, their answers, and rematches.

An invitation is recorded for every name the host gives, whether or not such a player exists,
so that nothing the host sees tells them which names are players here. The player it names (if
any) sees it on their dashboard, and gets it by email when they want invitation mail; they
accept (a seat, even at a private game: they were invited) or decline it."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.validators import fold_name, is_control

from . import services
from .engine import Rules
from .errors import GameError
from .guards import require_creator, require_may_play, require_open
from .locking import lock_game
from .models import DEFAULT_TIME_PER_MOVE_DAYS, Follow, Game, Invitation, Notification, Seat
from .notifications.outbox import notification_queue, seat_news_queue

MAX_INVITATIONS_PER_GAME = 20


def _invite(*, game: Game, host: User, invitee: User | None, invited_as: str) -> Invitation:
    """Record the invitation (the game is locked) and mail the player it names, if they want."""
    if invitee is not None and game.invitations.filter(invitee=invitee).exists():
        invitee = None  # the same player under another name: invited already
    invitation = Invitation.objects.create(
        game=game, invitee=invitee, invited_by=host, invited_as=invited_as
    )
    if invitee is not None:
        notification_queue(user=invitee, kind=Notification.Kind.INVITATION, game=game)
    return invitation


@transaction.atomic
def game_invite(*, game_id: int, user: User, who: str) -> Invitation | None:
    """The host invites a registered player, by user name, shown name (unique as it reads) or
    email, to this open game. Says nothing about whether such a player exists. None when that
    name was invited before, or names a player already seated."""
    game = lock_game(game_id)
    require_open(game)
    require_creator(game, user)
    who = (who or "").strip()[:254]
    if not who:
        raise GameError(_("Name a player, or give their email address."))
    if any(is_control(char) for char in who):
        raise GameError(_("That is not a player's name or an email address."))
    by_name = Q(username__iexact=who) | Q(name_key=fold_name(who))
    named = User.objects.filter(
        by_name | Q(emailaddress__email__iexact=who, emailaddress__verified=True)
    )
    # The host and the bots are no secret to the host: a refusal with its reason tells nothing.
    if named.filter(pk=user.pk).exists():
        raise GameError(_("You cannot invite yourself: you already have a seat at this game."))
    if User.objects.filter(by_name, is_bot=True, owner__isnull=True).exists():
        raise GameError(_("Bots are not invited: fill the empty seats with bots instead."))
    if game.invitations.filter(invited_as__iexact=who).exists():
        return None
    if game.invitations.count() >= MAX_INVITATIONS_PER_GAME:
        raise GameError(_("This game has sent all the invitations it may."), status=429)
    # A player's own bot is invited like a person (its program answers through the API).
    site_bot = Q(is_bot=True, owner__isnull=True)
    invitee = named.exclude(site_bot).filter(is_active=True).order_by("pk").first()
    if invitee is not None and game.seats.filter(user=invitee).exists():
        return None
    return _invite(game=game, host=user, invitee=invitee, invited_as=who)


def _lock_pending(invitation_id: int, user: User) -> Invitation:
    """The player's own invitation, still unanswered, its game locked first, then the row."""
    game_id = (
        Invitation.objects.filter(pk=invitation_id, invitee=user)
        .values_list("game_id", flat=True)
        .first()
        if user.is_authenticated
        else None
    )
    if game_id is None:
        raise GameError(_("There is no such invitation."), status=404)
    game = lock_game(game_id)
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    invitation.game = game
    if invitation.status != Invitation.Status.PENDING:
        raise GameError(_("You have already answered this invitation."), status=409)
    return invitation


def _answer(invitation: Invitation, status: str) -> None:
    invitation.status, invitation.answered_at = status, timezone.now()
    invitation.save(update_fields=["status", "answered_at"])


@transaction.atomic
def invitation_accept(*, invitation_id: int, user: User) -> Seat:
    """Take a seat at the game one was invited to; a full, started or cancelled game refuses
    (and nothing changes)."""
    invitation = _lock_pending(invitation_id, user)
    game = invitation.game
    if game.status == Game.Status.CANCELLED:
        raise GameError(_("This game was cancelled."), status=409)
    seat = game.seats.filter(user=user).first() or services.game_join(game_id=game.pk, user=user)
    _answer(invitation, Invitation.Status.ACCEPTED)
    return seat


@transaction.atomic
def invitation_decline(*, invitation_id: int, user: User) -> Invitation:
    invitation = _lock_pending(invitation_id, user)
    _answer(invitation, Invitation.Status.DECLINED)
    seat_news_queue(game=invitation.game, player=user, kind=Notification.Kind.DECLINED)
    return invitation


@transaction.atomic
def game_rematch(*, game_id: int, user: User) -> Game:
    """A new open game with the finished game's rules, seats, time per move and visibility: the
    player who asks in seat 0, the same bots seated, the other people invited. If a rematch is
    already waiting that this player is seated at or invited to, it is that one (they take the
    seat)."""
    require_may_play(user)
    finished = lock_game(game_id)
    seats = list(finished.seats.select_related("user").order_by("index"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise GameError(_("You have no seat at this game."), status=403)
    if finished.status != Game.Status.FINISHED:
        raise GameError(_("A rematch can follow only a finished game."), status=409)
    for rematch in finished.rematches.filter(status=Game.Status.OPEN).order_by("pk"):
        if rematch.seats.filter(user=user).exists():
            return rematch
        invitation = rematch.invitations.filter(
            invitee=user, status=Invitation.Status.PENDING
        ).first()
        if invitation is not None:
            try:
                with transaction.atomic():
                    invitation_accept(invitation_id=invitation.pk, user=user)
                return rematch
            except GameError:
                continue  # that one filled up: start another
    game = services.game_create(
        creator=user,
        rules=Rules.from_dict(finished.rules),
        seat_count=finished.seat_count,
        time_per_move_days=finished.time_per_move_days,
        is_public=finished.is_public,
        friends_only=finished.friends_only,
        max_timeouts=finished.max_timeouts,
        rated=finished.rated,
        start_when_full=finished.start_when_full,
    )
    game.rematch_of = finished
    game.save(update_fields=["rematch_of"])
    others = [seat.user for seat in seats if seat.user_id != user.pk]
    bots = [other for other in others if other.is_site_bot]
    Seat.objects.bulk_create(
        Seat(game=game, index=index, user=bot) for index, bot in enumerate(bots, start=1)
    )
    services.game_start_if_full(game=game, by=user)  # against bots alone: at once
    for person in others:
        if not person.is_site_bot and person.is_active:
            _invite(game=game, host=user, invitee=person, invited_as=person.username)
    return game


@transaction.atomic
def friend_invite(*, user: User, friend: User) -> Game:
    """One click from the friends page: a two-seat game with the standard rules and the new-game
    form's default clock, unlisted (it is theirs), and `friend` invited to it the usual way (their
    dashboard, and mail if they want it). Only a player one follows; clicking again while that
    invitation waits returns the same game."""
    require_may_play(user)
    User.objects.select_for_update().get(pk=user.pk)  # one at a time: a double click, one game
    if not Follow.objects.filter(follower=user, followee=friend).exists():
        raise GameError(_("Follow this player first to invite them in one click."), status=403)
    if friend.is_bot or not friend.is_active:
        raise GameError(_("There is no such player."), status=404)
    waiting = (
        Game.objects.filter(
            created_by=user,
            status=Game.Status.OPEN,
            seat_count=2,
            invitations__invitee=friend,
            invitations__status=Invitation.Status.PENDING,
        )
        .order_by("-pk")
        .first()
    )
    if waiting is not None and waiting.seats.count() < waiting.seat_count:
        return waiting
    game = services.game_create(
        creator=user,
        rules=Rules(),
        seat_count=2,
        time_per_move_days=DEFAULT_TIME_PER_MOVE_DAYS,
        is_public=False,
    )
    _invite(game=game, host=user, invitee=friend, invited_as=friend.username)
    return game
