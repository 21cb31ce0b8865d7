import factory

from accounts.models import User


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password("correct horse battery")


def started_game(users, *, rules=None, bots: str | None = None, seat_count=None, **options):
    """A game created by users[0], joined by the others (and bots), then started."""
    from games import services
    from games.engine import Rules

    seat_count = seat_count or len(users)
    game = services.game_create(
        creator=users[0], rules=rules or Rules(), seat_count=seat_count, **options
    )
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    if bots:
        services.game_fill_with_bots(game_id=game.pk, user=users[0], bot_kind=bots)
    services.game_start(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    return game


def legal_actions(game):
    """The engine's legal actions for the seat to move (test-side knowledge of the state)."""
    from games.engine import GameState

    return GameState.from_dict(game.state).legal_actions()


def play_one(game, users_by_seat, choose=lambda actions: actions[0]):
    """Play one action for the seat to move through the services, as its player would."""
    from games import services

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
