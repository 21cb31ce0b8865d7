"""What a game is part of, for the line above its table: a league's division or a tournament's
round (both None for any other game), in one query."""

from contextlib import suppress
from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from ..models import Division, Game, TournamentTable


def game_competition(game_id: int) -> dict[str, Any]:
    """{"league_division": Division | None, "tournament_table": TournamentTable | None}, each
    with what its line names (the season and league; the round and tournament)."""
    game = (
        Game.objects.filter(pk=game_id)
        .select_related(
            "league_fixture__division__season__league", "tournament_table__round__tournament"
        )
        .only(
            "pk",
            "league_fixture__division__level",
            "league_fixture__division__season__number",
            "league_fixture__division__season__league__name",
            "tournament_table__round__number",
            "tournament_table__round__tournament__name",
        )
        .first()
    )
    found: dict[str, Division | TournamentTable | None] = {
        "league_division": None,
        "tournament_table": None,
    }
    if game is None:
        return found
    with suppress(ObjectDoesNotExist):
        found["league_division"] = game.league_fixture.division
    with suppress(ObjectDoesNotExist):
        found["tournament_table"] = game.tournament_table
    return found
