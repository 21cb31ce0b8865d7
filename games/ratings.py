"""Ratings: OpenSkill's Plackett-Luce model, free-for-all with ties, 2 to 8 players.

Which games are rated: every finished game but a practice game (Game.rated), every seat (people and
bots), ranked by its final rank (ties shared, a resigned or dropped player after everyone who
stayed), once at least settings.RATING_MIN_ROUNDS rounds were played: a game that runs its course
always has; a game ended at once by a resignation does not farm rating, nor does a practice game
against the easy bot. A seat whose player deleted their account during the game (Seat.departed) is
left out, and the others are rated among themselves: a win over an account made to lose and then be
deleted is no win. Private games are rated like public ones: the players chose each other, but so
do friends in the lobby, and a rating that some games skip would be a rating players could choose
to protect.

The rating is written in the transaction that ends the game (services.game_finish calls
game_rate), after the game's lock and then the players' rating rows, locked in user order (two
games ending at once with a player in common wait for each other). Ratings belong to games: a
rating comes from games and their ranks, and accounts imports nothing from games.
`rebuild_ratings` replays every finished game in finish order through the same function."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from .models import Game, Rating, RatingChange, RoundScore, Seat

MODEL = PlackettLuce()


def display_rating(ordinal: float) -> int:
    """The number shown to players: the conservative estimate (mu - 3 sigma), scaled so that a
    newcomer starts at 1000."""
    return round(1000 + 40 * ordinal)


@dataclass(frozen=True)
class ShownRating:
    """A player's rating as every page shows it: provisional until settings.LEADERBOARD_MIN_GAMES
    rated games (a newcomer's is 1000, provisional)."""

    value: int
    games: int
    provisional: bool

    @property
    def min_games(self) -> int:
        return settings.LEADERBOARD_MIN_GAMES


def shown_rating(rating: Rating | None) -> ShownRating:
    """What a player's Rating row (None: no rated game yet) shows."""
    if rating is None:
        return ShownRating(display_rating(0.0), 0, True)
    provisional = rating.games < settings.LEADERBOARD_MIN_GAMES
    return ShownRating(display_rating(rating.ordinal), rating.games, provisional)


def rating_of(user) -> ShownRating:
    """The shown rating of a user read with its rating (select_related("user__rating"), else one
    query)."""
    return shown_rating(getattr(user, "rating", None))


def is_rated(game: Game) -> bool:
    if game.status != Game.Status.FINISHED or game.seat_count < 2 or not game.rated:
        return False
    rounds = RoundScore.objects.filter(game=game, seat=0).count()
    return rounds >= settings.RATING_MIN_ROUNDS


def game_rate(*, game: Game, seats: Sequence[Seat]) -> bool:
    """Rate the finished `game` from its seats' final ranks, in the caller's transaction. False
    when the game is not rated, or was rated already (the RatingChange constraint)."""
    seats = [seat for seat in seats if not seat.departed]
    if len(seats) < 2 or not is_rated(game):
        return False
    user_ids = sorted(seat.user_id for seat in seats)
    # A newcomer's row first (two games ending at once may both try: one row wins), then every
    # row locked in user order.
    Rating.objects.bulk_create(
        [Rating(user_id=i, mu=MODEL.mu, sigma=MODEL.sigma, ordinal=0) for i in user_ids],
        ignore_conflicts=True,
    )
    current = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(user_id__in=user_ids)
        .order_by("user_id")
    }
    before = [MODEL.rating(mu=current[s.user_id].mu, sigma=current[s.user_id].sigma) for s in seats]
    after = MODEL.rate([[r] for r in before], ranks=[seat.final_rank for seat in seats])
    changes = [
        RatingChange(
            game=game,
            user_id=seat.user_id,
            rank=seat.final_rank,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
            ordinal_after=new.ordinal(),
            finished_at=game.finished_at,
        )
        for seat, old, (new,) in zip(seats, before, after, strict=True)
    ]
    try:
        with transaction.atomic():
            RatingChange.objects.bulk_create(changes)
    except IntegrityError:
        return False  # this game has changed these ratings already
    for change in changes:
        rating = current[change.user_id]
        rating.mu, rating.sigma = change.mu_after, change.sigma_after
        rating.ordinal = change.ordinal_after
        rating.games += 1
    Rating.objects.bulk_update(current.values(), ["mu", "sigma", "ordinal", "games"])
    return True


@transaction.atomic
def ratings_rebuild() -> int:
    """Forget every rating and rate every finished game again, in finish order. Returns how many
    games were rated."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    rated = 0
    games = Game.objects.filter(status=Game.Status.FINISHED).order_by("finished_at", "pk")
    for game in games.iterator():
        seats = list(game.seats.all())
        rated += game_rate(game=game, seats=seats)
    return rated
