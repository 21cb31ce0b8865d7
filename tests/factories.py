"""Factories for players, games, seats and moves. A game is made through the services (the one
source of truth for what starting, resigning or finishing does) and seeded from the test's node
id (tests/seeds.py, through Game.seed's default in tests/conftest.py), so that its deal replays:

    GameFactory()                       an open game, its creator seated, the other seats free
    GameFactory(started=True)           every free seat taken by a new player, started
    GameFactory(resigned=True)          started, then the last seat's player resigned
    GameFactory(finished=True)          started, then ended as completed (every total 0)
    GameFactory(started=True, players=[alice, bob], seat_count=3, bots="easy", rules=Rules(...))
    SeatFactory(game=game)              the next free seat, for a new player
    MoveFactory(game=game)              the seat to move plays its first legal action
    TournamentFactory(players=11)       opened by a new host for tomorrow, eleven more joined
    LeagueFactory(members=[a, b, c])    made by a, joined by b and c, its first season due now
"""

import random
from datetime import timedelta

import factory
from allauth.account.models import EmailAddress
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.competitions import leagues, tournaments
from games.engine import GameState, Rules, get_bot
from games.locking import lock_game
from games.models import Game, League, LeagueSeason, Move, Seat, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("correct horse battery")

    @factory.post_generation
    def verified(user, create, extracted, **kwargs):
        """The address is confirmed (mail about games goes only to a verified address);
        UserFactory(verified=False) for one that is not."""
        if create and user.email:
            EmailAddress.objects.create(
                user=user, email=user.email.lower(), primary=True, verified=extracted is not False
            )


def _start(game: Game, create: bool, extracted, **kwargs) -> None:
    """Fill the free seats with new players, then start it (if the last seat did not)."""
    while game.seats.count() < game.seat_count:
        services.game_join(game_id=game.pk, user=UserFactory(), invite_code=game.invite_code)
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        services.game_start(game_id=game.pk, user=game.created_by)
        game.refresh_from_db()


def _resign(game: Game, create: bool, extracted, **kwargs) -> None:
    _start(game, create, extracted)
    last = game.seats.filter(user__is_bot=False).order_by("-index").first()
    services.game_resign(game_id=game.pk, user=last.user)
    game.refresh_from_db()


def _finish(game: Game, create: bool, extracted, **kwargs) -> None:
    _start(game, create, extracted)
    finish_game(game)


def finish_game(game: Game) -> None:
    """End a started game as completed where it stands (every total as the rounds left it)."""
    with transaction.atomic():
        locked = lock_game(game.pk)
        state = GameState.from_dict(locked.state)
        services.game_finish(
            game=locked, state=state, now=timezone.now(), reason=Game.EndReason.COMPLETED
        )
        locked.save()
    game.refresh_from_db()


class GameFactory(factory.django.DjangoModelFactory):
    """A game made by services.game_create (rules, seats and options as its keywords), seated
    with `players` (new players by default) and `bots`, then taken as far as its trait says."""

    class Meta:
        model = Game
        skip_postgeneration_save = True

    class Params:
        started = factory.Trait(progress=factory.PostGeneration(_start))
        resigned = factory.Trait(progress=factory.PostGeneration(_resign))
        finished = factory.Trait(progress=factory.PostGeneration(_finish))

    created_by = factory.SubFactory(UserFactory)
    rules = factory.LazyFunction(Rules)
    seat_count = 2
    time_per_move_days = None
    is_public = True
    max_timeouts = 3

    @classmethod
    def _create(cls, model_class, *, created_by, rules, **options):
        # Seeded by Game.seed's default, which tests/conftest.py makes seeds.seed_for_test.
        return services.game_create(creator=created_by, rules=rules, **options)

    @factory.post_generation
    def players(game, create, extracted, **kwargs):
        """Seat `players` after the creator (a trait that starts the game fills the rest)."""
        for user in extracted or ():
            services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)

    @factory.post_generation
    def bots(game, create, extracted, **kwargs):
        if extracted:
            services.game_fill_with_bots(game_id=game.pk, user=game.created_by, bot_kind=extracted)

    @factory.post_generation
    def progress(game, create, extracted, **kwargs):
        """Overridden by the traits: start, resign or finish the game."""


class SeatFactory(factory.django.DjangoModelFactory):
    """The game's next free seat, taken through services.game_join by a new player."""

    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory, seat_count=3)
    user = factory.SubFactory(UserFactory)

    @classmethod
    def _create(cls, model_class, *, game, user, **kwargs):
        return services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)


class MoveFactory(factory.django.DjangoModelFactory):
    """One move of a started game, played through the services by the seat to move: the first
    of its legal actions, or the one `choose(actions)` picks."""

    class Meta:
        model = Move

    game = factory.SubFactory(GameFactory, started=True)

    @classmethod
    def _create(cls, model_class, *, game, choose=lambda actions: actions[0], **kwargs):
        game.refresh_from_db()
        users = {seat.index: seat.user for seat in game.seats.select_related("user")}
        play_one(game, users, choose)
        return Move.objects.get(game=game, seq=game.version - 1)


def started_game(users, *, rules=None, bots: str | None = None, seat_count=None, **options):
    """A game created by users[0], joined by the others (and bots), then started."""
    return GameFactory(
        created_by=users[0],
        players=users[1:],
        rules=rules or Rules(),
        seat_count=seat_count or len(users),
        bots=bots,
        started=True,
        **options,
    )


def legal_actions(game):
    """The engine's legal actions for the seat to move (test-side knowledge of the state)."""
    return GameState.from_dict(game.state).legal_actions()


def play_one(game, users_by_seat, choose=lambda actions: actions[0]):
    """Play one action for the seat to move through the services, as its player would."""
    action = choose(legal_actions(game)).to_dict()
    user = users_by_seat[action["seat"]]
    if action["type"] == "draw":
        services.move_draw(
            game_id=game.pk, user=user, version=game.version, source=action["source"]
        )
    elif action["type"] == "discard":
        services.move_discard(game_id=game.pk, user=user, version=game.version, card=action["card"])
    else:
        services.move_go_out(game_id=game.pk, user=user, version=game.version, card=action["card"])
    game.refresh_from_db()
    return action


def play_on(game, *, until=lambda game: False, level="easy", rng=None) -> int:
    """Good play through the services until `until(game)` or the game's end: each person plays
    what the `level` bot would choose from their view (so rounds end by going out, in a few
    hundred moves a game, where the first legal action takes thousands), and a bot's turn is
    played as the worker would (bot_play_turn, which does nothing if the worker got there
    first). Returns how many moves were tried."""
    seats = list(game.seats.select_related("user"))
    users = {seat.index: seat.user for seat in seats}
    bots = {seat.index for seat in seats if seat.played_by_bot}  # as they were when called
    bot, rng = get_bot(level), rng or random.Random(f"{game.seed}:{level}")
    moves = 0
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE and not until(game):
        if game.to_move_seat in bots:
            services.bot_play_turn(game_id=game.pk, version=game.version)
            game.refresh_from_db()
        else:
            view = GameState.from_dict(game.state).view(game.to_move_seat)
            play_one(game, users, choose=lambda _legal, view=view: bot.choose(view, rng))
        moves += 1
    return moves


def signup(client, **fields):
    """The sign-up form posted as a person would: "dave" with an address and a password, changed
    by `fields`."""
    data = {"username": "dave", "display_name": "", "email": "dave@example.com",
            "password1": "a long enough pass 42", "password2": "a long enough pass 42"}  # fmt: skip
    data.update(fields)
    return client.post(reverse("account_signup"), data)


def wide(text: str) -> str:
    """`text` (ASCII letters and digits; spaces stay) in their full-width forms."""
    return "".join(char if char == " " else chr(ord(char) + 0xFEE0) for char in text)


class TournamentFactory(factory.Factory):
    """A tournament opened through the service (its host its first player), and `players` more
    who joined it; it starts tomorrow unless told otherwise."""

    class Meta:
        model = Tournament

    host = factory.SubFactory(UserFactory)
    name = "Spring cup"
    preset = "classic"
    seats_per_table = 3
    rounds = 3
    time_per_move_days = 3
    starts_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=1))
    players = 0

    @classmethod
    def _create(cls, model_class, *args, players=0, **fields):
        tournament = tournaments.tournament_create(**fields)
        for _ in range(players):
            tournaments.tournament_join(tournament_id=tournament.pk, user=UserFactory())
        return tournament


class LeagueFactory(factory.Factory):
    """A league made by members[0] through the service and joined by the rest, its first season
    due now; no bots fill a short division unless told."""

    class Meta:
        model = League

    members = factory.LazyFunction(lambda: [UserFactory(), UserFactory()])
    name = factory.Sequence(lambda n: f"Tuesday {n}")
    preset = "classic"
    bots_fill = False

    @classmethod
    def _create(cls, model_class, *args, members, **options):
        league = leagues.league_create(user=members[0], **options)
        for user in members[1:]:
            leagues.league_join(league_id=league.pk, user=user)
        LeagueSeason.objects.filter(league=league).update(starts_at=timezone.now())
        return league
