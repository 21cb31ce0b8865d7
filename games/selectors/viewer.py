"""Which game and seat a request is about, and whether its viewer may look at it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import Exists, OuterRef, Prefetch, Q

from accounts.models import User

from ..errors import GameError, NoSuchGame
from ..models import Follow, Game, Invitation, Seat

Reader = Callable[[int, User], tuple[Game | None, Seat | None]]

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations  # django-stubs' own: a dev dependency


def host_follows(user: User) -> Exists:
    """For a query over games: the game's host follows `user`, so a friends-only game is theirs
    to see and join. False for a visitor."""
    user_id = user.pk if user.is_authenticated else None
    return Exists(Follow.objects.filter(follower_id=OuterRef("created_by"), followee_id=user_id))


def listed_for(user: User) -> Q:
    """The open games `user` may find in the lobby and on the friends page: the listed ones, and
    the friends-only ones of a host who follows them (or that they host)."""
    user_id = user.pk if user.is_authenticated else None
    return Q(is_public=True) | Q(friends_only=True) & (
        Q(created_by_id=user_id) | Q(host_follows(user))
    )


class HostFollows(TypedDict):
    host_follows_viewer: bool


def game_for_viewer(
    game_id: int, user: User
) -> tuple[WithAnnotations[Game, HostFollows] | None, Seat | None]:
    """The game and its seats with their players and ratings in seat order
    (`game.seats.all()` for the pages' selectors, read once), the viewer's among them: two
    queries (a third only for a viewer without a seat at a friends-only game: whether its host
    follows them, which can_watch then asks)."""
    seats = Seat.objects.select_related("user", "user__rating").order_by("index")
    found = Game.objects.filter(pk=game_id).prefetch_related(Prefetch("seats", queryset=seats))
    game = cast("WithAnnotations[Game, HostFollows] | None", found.first())
    if game is None:
        return None, None
    seat = None
    if user.is_authenticated:
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    game.host_follows_viewer = (
        seat is None
        and game.friends_only
        and user.is_authenticated
        and Follow.objects.filter(follower_id=game.created_by_id, followee_id=user.pk).exists()
    )
    return game, seat


def game_as_left(result: object, user: User) -> tuple[Game, Seat] | None:
    """The game and the player's seat as a move left them (read with its seats under the
    move's lock, services.move_play): what answers the move, the page's table or the API's view,
    needs no second look. None for anything else (and for a move that ended the game: its page
    reads the results)."""
    if not (isinstance(result, Game) and result.seats_loaded):
        return None
    if result.status != Game.Status.ACTIVE:
        return None
    seat = next((s for s in result.seats.all() if s.user_id == user.pk), None)
    return (result, seat) if seat is not None else None


def game_for_poll(game_id: int, user: User) -> tuple[Game | None, Seat | None]:
    """The little a poll needs (version, status, who may look), in one query for a player."""
    fields = (
        "version", "status", "is_public", "friends_only", "invite_code", "chat_count",
        "chat_spectators",
    )  # fmt: skip
    if user.is_authenticated:
        seat = (
            Seat.objects.filter(game_id=game_id, user=user)
            .select_related("game")
            .only("id", "index", "last_seen_at", *(f"game__{f}" for f in fields))
            .first()
        )
        if seat is not None:
            return seat.game, seat
    game = (
        Game.objects.filter(pk=game_id)
        .only(*fields)
        .annotate(host_follows_viewer=host_follows(user))
        .first()
    )
    return game, None


def can_watch(game: Game, seat: Seat | None, invite_code: str | None = None) -> bool:
    """A seat, a listed game, its invitation link, or a friends-only game whose host follows the
    viewer (the game as game_for_viewer or game_for_poll reads it)."""
    return (
        seat is not None
        or game.is_public
        or invite_code == game.invite_code
        # Annotated on a game read without the viewer's seat (game_for_viewer, game_for_poll),
        # which the stubs cannot follow into this function.
        or (game.friends_only and game.host_follows_viewer)  # type: ignore[attr-defined]
    )


def watched(
    game_id: int, user: User, invite_code: str | None = None, *, read: Reader | None = None
) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat (as `read` reads them: game_for_viewer, or game_for_poll
    for the little a poll needs), if the viewer may look at it; else NoSuchGame (404)."""
    game, seat = (read or game_for_viewer)(game_id, user)
    if game is None or not can_watch(game, seat, invite_code):
        raise NoSuchGame
    return game, seat


def as_viewer[T](
    service: Callable[..., T],
    *,
    game_id: int,
    user: User,
    watch_code: str | None = None,
    **fields: Any,
) -> T:
    """Run a write service for `user` at a game, as the pages and the API both do: at a game
    they may not look at (with `watch_code`, the invitation code they came by), any refusal is
    NoSuchGame, whatever the service said (that they hold no seat, that the game is not in
    play...): it would tell them of the game."""
    try:
        return service(game_id=game_id, user=user, **fields)
    except GameError:
        watched(game_id, user, watch_code)
        raise


def can_chat(game: Game, seat: Seat | None) -> bool:
    """Whether the viewer (who may watch the game) reads and writes its chat: its players, and
    spectators once the host opened it to them."""
    return seat is not None or game.chat_spectators


def chat_version(game: Game, seat: Seat | None) -> int:
    """The chat's part of the table's version, for this viewer: 0 for one who may not read it
    (so that the page tells them nothing of it)."""
    return game.chat_count if can_chat(game, seat) else 0


def other_people_playing(game: Game, seat: Seat) -> int:
    """How many people besides this seat's player still play the game themselves (not resigned;
    bots do not count): when none would be left, a resignation ends the game
    (services.game_resign)."""
    return game.seats.filter(user__is_bot=False, resigned=False).exclude(pk=seat.pk).count()


def waiting_mark(game: Game) -> str:
    """What the others can change on a waiting room's page, in a few characters: its status, who
    holds the seats (their ids) and how many invitations were answered. The page's poll sends it
    back; another mark means the page is out of date."""
    seats = "-".join(str(seat.pk) for seat in game.seats.all())
    answered = game.invitations.exclude(status=Invitation.Status.PENDING).count()
    return f"{game.status}.{answered}.{seats}"
