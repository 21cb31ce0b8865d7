"""The game state machine of Three Thirteen: deal, draw, discard, go out, last turns, scoring;
which actions are legal now, and applying one. It hands each seat its view (view.py).

A game is fully determined by (rules, players, seed, actions): every shuffle draws from a seed
derived from the game's own seed, never from global randomness, so `GameState.replay` rebuilds any
game exactly.

House calls made here (the rules leave them open; docs/playing.md, "The game"):
- A card taken from the discard pile may not be thrown back the same turn, and neither may another
  copy of the same face (with several decks): it would pass the same card back all the same.
  Going out with such a card is barred alike. Exception: when every card in the hand has that face
  (a hand of jokers, or of one face with several decks), any of them may be discarded, so a turn
  always has a legal discard.
- Once somebody has gone out, nobody else "goes out": the last-turn players draw and discard, and
  one whose hand then melds completely simply scores 0.
- Redemption: a last-turn player lays down when discarding; the melds and lay-offs are scored at
  that moment against every meld shown so far, and become shown themselves.
- Stock empty when a player wants to draw from it: the discard pile below its top card is shuffled
  into a new stock. If nothing lies below the top card, drawing from the stock is illegal (the
  discard pile always holds a card at the start of a turn, so a draw is always possible).
- The turn limit counts completed turns (a discard ends a turn) while nobody has gone out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import Action, Discard, Draw, GoOut, action_from_dict
from .cards import Card, make_deck, shuffled
from .errors import RuleError, gettext_noop
from .melds import arrange
from .results import Layoff, MoveRecord, RoundResult, SeatResult
from .rules import Rules
from .solver_memo import cached_going_out_cards
from .tokens import card_of, cards_of, melds_to_json, token_of, tokens_of
from .view import (
    PILE_RESHUFFLED,
    PILE_THREW,
    PILE_TOOK,
    PILE_TURNED,
    PileEvent,
    PlayerView,
    pile_events_from_json,
    pile_events_to_json,
)

STATE_FORMAT = 1
PHASE_DRAW = "draw"
PHASE_DISCARD = "discard"
PHASE_GAME_OVER = "game_over"


class GameState:
    """A game in progress. Mutable: `apply` changes it in place. Tests may set hands, stock and
    discard_pile directly to build a situation."""

    def __init__(self, rules: Rules, players: int, seed: str, first_dealer: int):
        rules.deck_count(players)  # validates the number of players
        self.rules = rules
        self.players = players
        self.seed = seed
        self.first_dealer = first_dealer
        self.round_index = 0
        self.to_move: int | None = None
        self.phase = PHASE_DRAW
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []
        self.discard_pile: list[Card] = []
        self.went_out: int | None = None
        self.shown_melds: list[list[list[Card]]] = [[] for _ in range(players)]
        self.drawn_from_discard: Card | None = None
        self.turns_played = 0  # completed turns this round
        self.reshuffles = 0  # stock rebuilt from the discard pile this round
        self.pending_results: list[SeatResult | None] = [None] * players  # redemption lay-downs
        self.pile_events: list[PileEvent] = []
        self.round_results: list[RoundResult] = []
        self.totals = [0] * players
        self.winners: list[int] = []
        self.action_count = 0

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, players: int, seed: str) -> GameState:
        first_dealer = random.Random(f"{seed}:dealer").randrange(players)
        state = cls(rules, players, seed, first_dealer)
        state._deal()
        return state

    @classmethod
    def replay(
        cls, rules: Rules, players: int, seed: str, actions: Iterable[Action | Mapping[str, Any]]
    ) -> GameState:
        """The game after `actions` (Action objects, or their `to_dict()` form)."""
        state = cls.new(rules, players, seed)
        for action in actions:
            state.apply(action_from_dict(action) if isinstance(action, Mapping) else action)
        return state

    def _deal(self) -> None:
        deck = make_deck(self.rules.deck_count(self.players), self.rules.jokers)
        stock = shuffled(deck, f"{self.seed}:round:{self.round_index}")
        first = (self.dealer + 1) % self.players
        self.hands = [[] for _ in range(self.players)]
        for _ in range(self.hand_size):  # one card at a time, starting left of the dealer
            for offset in range(self.players):
                self.hands[(first + offset) % self.players].append(stock.pop())
        self.discard_pile = [stock.pop()]
        self.stock = stock
        self.to_move = first
        self.phase = PHASE_DRAW
        self.went_out = None
        self.shown_melds = [[] for _ in range(self.players)]
        self.drawn_from_discard = None
        self.turns_played = 0
        self.reshuffles = 0
        self.pending_results = [None] * self.players
        self.pile_events = [(None, PILE_TURNED, self.discard_pile[0])]

    # -- derived facts -----------------------------------------------------------------------
    @property
    def round_count(self) -> int:
        return self.rules.round_count

    @property
    def hand_size(self) -> int:
        return self.rules.hand_sizes[self.round_index]

    @property
    def wild_rank(self) -> int:
        return self.rules.wild_rank_for(self.hand_size)

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.round_index) % self.players

    @property
    def last_turns(self) -> bool:
        return self.went_out is not None

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_GAME_OVER

    def _seat_in_play(self) -> int:
        """The seat to move while a round is in play (to_move is None only once the game is
        over, when nothing asks for it)."""
        seat = self.to_move
        assert seat is not None, "no seat to move once the game is over"
        return seat

    def _barred_face(self) -> tuple[int, str] | None:
        """The face (rank, suit) the seat to move may not discard this turn: that of the card it
        took from the discard pile, unless its whole hand has that face."""
        taken = self.drawn_from_discard
        if taken is None:
            return None
        face = (taken.rank, taken.suit)
        if all((card.rank, card.suit) == face for card in self.hands[self._seat_in_play()]):
            return None
        return face

    def _is_thrown_back(self, card: Card) -> bool:
        return (card.rank, card.suit) == self._barred_face()

    def _can_draw_from_stock(self) -> bool:
        return bool(self.stock) or len(self.discard_pile) > 1

    def _going_outcards_of(self, hand: Sequence[Card]) -> list[Card]:
        going_out = cached_going_out_cards(hand, self.wild_rank, self.rules)
        return [card for card in going_out if not self._is_thrown_back(card)]

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The actions of the seat to move (none once the game is over)."""
        if self.phase == PHASE_DRAW:
            seat = self._seat_in_play()
            actions: list[Action] = []
            if self._can_draw_from_stock():
                actions.append(Draw(seat, "stock"))
            if self.discard_pile:
                actions.append(Draw(seat, "discard"))
            return actions
        if self.phase == PHASE_DISCARD:
            seat = self._seat_in_play()
            hand = self.hands[seat]
            actions = [Discard(seat, card) for card in hand if not self._is_thrown_back(card)]
            if not self.last_turns:
                actions += [GoOut(seat, card) for card in self._going_outcards_of(hand)]
            return actions
        return []

    def _check(self, action: Action) -> None:
        """Raise RuleError unless `action` is legal now; changes nothing."""
        if self.is_over:
            raise RuleError(gettext_noop("The game is over."))
        if not isinstance(action, Draw | Discard | GoOut):
            raise RuleError(gettext_noop("That is not a move of this game."))
        if action.seat != self.to_move:
            raise RuleError(gettext_noop("It is not your turn."))
        if isinstance(action, Draw):
            if self.phase != PHASE_DRAW:
                raise RuleError(
                    gettext_noop("You have already drawn this turn: now discard a card.")
                )
            if action.source == "stock":
                if not self._can_draw_from_stock():
                    raise RuleError(
                        gettext_noop(
                            "The stock is empty and there is nothing to shuffle into it: "
                            "draw from the discard pile."
                        )
                    )
            elif action.source == "discard":
                if not self.discard_pile:
                    raise RuleError(gettext_noop("The discard pile is empty."))
            else:
                raise RuleError(gettext_noop("Draw from the stock or from the discard pile."))
            return
        if self.phase != PHASE_DISCARD:
            raise RuleError(gettext_noop("Draw a card first, from the stock or the discard pile."))
        if action.card not in self.hands[action.seat]:
            raise RuleError(gettext_noop("You do not hold the %(card)s."), card=str(action.card))
        if self._is_thrown_back(action.card):
            raise RuleError(
                gettext_noop("You may not throw back the card you just took from the discard pile.")
            )
        if isinstance(action, GoOut):
            if self.last_turns:
                raise RuleError(
                    gettext_noop(
                        "A player has already gone out this round: discard to finish your last "
                        "turn."
                    )
                )
            if action.card not in self._going_outcards_of(self.hands[action.seat]):
                raise RuleError(
                    gettext_noop(
                        "You cannot go out: the rest of your hand must form melds "
                        "once the %(card)s is discarded."
                    ),
                    card=str(action.card),
                )

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except RuleError:
            return False
        return True

    # -- applying actions --------------------------------------------------------------------
    def apply(self, action: Action) -> MoveRecord:
        """Play `action` for its seat, or raise RuleError and change nothing."""
        self._check(action)
        index = self.action_count
        self.action_count += 1
        if isinstance(action, Draw):
            return self._draw(action, index)
        return self._discard(action, index)

    def _draw(self, action: Draw, index: int) -> MoveRecord:
        reshuffled = False
        if action.source == "stock":
            if not self.stock:
                self._reshuffle()
                reshuffled = True
            card = self.stock.pop()
            self.drawn_from_discard = None
        else:
            card = self.discard_pile.pop()
            self.drawn_from_discard = card
            self.pile_events.append((action.seat, PILE_TOOK, card))
        self.hands[action.seat].append(card)
        self.phase = PHASE_DISCARD
        return MoveRecord(
            seat=action.seat,
            type="draw",
            source=action.source,
            card=card,
            round_index=self.round_index,
            action_index=index,
            reshuffled=reshuffled,
        )

    def _reshuffle(self) -> None:
        below_top, top = self.discard_pile[:-1], self.discard_pile[-1]
        seed = f"{self.seed}:round:{self.round_index}:reshuffle:{self.reshuffles}"
        self.stock = shuffled(below_top, seed)
        self.discard_pile = [top]
        self.reshuffles += 1
        self.pile_events.append((None, PILE_RESHUFFLED, top))

    def _discard(self, action: Discard | GoOut, index: int) -> MoveRecord:
        seat, card = action.seat, action.card
        hand = self.hands[seat]
        melds: tuple[tuple[Card, ...], ...] = ()
        layoffs: tuple[Layoff, ...] = ()
        hand.remove(card)
        self.discard_pile.append(card)
        self.pile_events.append((seat, PILE_THREW, card))
        self.drawn_from_discard = None
        self.turns_played += 1
        round_index = self.round_index
        if isinstance(action, GoOut):
            self.went_out = seat
            melds = tuple(tuple(meld) for meld in arrange(hand, self.wild_rank, self.rules).melds)
            self.shown_melds[seat] = [list(meld) for meld in melds]
        elif self.last_turns and self.rules.redemption:
            result = self._lay_down(seat)
            melds, layoffs = result.melds, result.layoffs
        next_seat = (seat + 1) % self.players
        round_over = (self.last_turns and next_seat == self.went_out) or (
            not self.last_turns and self.turns_played >= self.rules.turn_limit * self.players
        )
        if round_over:
            self._end_round()
        else:
            self.to_move = next_seat
            self.phase = PHASE_DRAW
        return MoveRecord(
            seat=seat,
            type="go_out" if isinstance(action, GoOut) else "discard",
            source=None,
            card=card,
            round_index=round_index,
            action_index=index,
            melds=melds,
            layoffs=layoffs,
            round_ended=round_over,
            game_over=self.is_over,
        )

    def _lay_down(self, seat: int) -> SeatResult:
        """Redemption: score `seat`'s last turn against every meld shown so far, and show its
        melds and lay-offs."""
        table: list[tuple[int, int]] = [
            (owner, i) for owner in range(self.players) for i in range(len(self.shown_melds[owner]))
        ]
        table_melds = [self.shown_melds[owner][i] for owner, i in table]
        result = self._seat_result(seat, table_melds, table)
        for layoff in result.layoffs:
            self.shown_melds[layoff.seat][layoff.meld].extend(layoff.cards)
        self.shown_melds[seat] = [list(meld) for meld in result.melds]
        self.pending_results[seat] = result
        return result

    def _seat_result(
        self,
        seat: int,
        table_melds: Sequence[Sequence[Card]] = (),
        table: Sequence[tuple[int, int]] = (),
    ) -> SeatResult:
        hand = self.hands[seat]
        arrangement = arrange(hand, self.wild_rank, self.rules, table_melds=table_melds)
        multiplier = self.rules.round_multiplier(self.wild_rank)
        layoffs = tuple(
            Layoff(table[meld_index][0], table[meld_index][1], tuple(cards))
            for meld_index, cards in arrangement.layoffs
        )
        return SeatResult(
            penalty=arrangement.penalty * multiplier,
            melds=tuple(tuple(meld) for meld in arrangement.melds),
            deadwood=tuple(arrangement.deadwood),
            layoffs=layoffs,
            hand=tuple(hand),
        )

    def _end_round(self) -> None:
        seats = []
        for seat in range(self.players):
            pending = self.pending_results[seat]
            if seat == self.went_out:
                melds = tuple(tuple(meld) for meld in self._own_melds(seat))
                seats.append(SeatResult(0, melds, (), (), tuple(self.hands[seat])))
            elif pending is not None:
                seats.append(pending)
            else:
                seats.append(self._seat_result(seat))
        result = RoundResult(
            round_index=self.round_index,
            hand_size=self.hand_size,
            wild_rank=self.wild_rank,
            went_out=self.went_out,
            multiplier=self.rules.round_multiplier(self.wild_rank),
            seats=tuple(seats),
        )
        self.round_results.append(result)
        for seat, seat_result in enumerate(seats):
            self.totals[seat] += seat_result.penalty
        if self.round_index + 1 < self.round_count:
            self.round_index += 1
            self._deal()
        else:
            self._finish()

    def _own_melds(self, seat: int) -> list[list[Card]]:
        """The melds `seat` showed, without cards others laid off onto them."""
        own = set(self.hands[seat])
        return [[card for card in meld if card in own] for meld in self.shown_melds[seat]]

    def _finish(self) -> None:
        self.phase = PHASE_GAME_OVER
        self.to_move = None
        self.drawn_from_discard = None
        best = min(self.totals)
        self.winners = [seat for seat, total in enumerate(self.totals) if total == best]

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: int | None) -> PlayerView:
        if seat is not None and not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players
        ):
            raise RuleError(gettext_noop("There is no such seat in this game."))
        my_turn = seat is not None and seat == self.to_move
        return PlayerView(
            seat=seat,
            rules=self.rules,
            players=self.players,
            round_index=self.round_index,
            round_count=self.round_count,
            hand_size=self.hand_size,
            wild_rank=self.wild_rank,
            dealer=self.dealer,
            to_move=self.to_move,
            phase=self.phase,
            hand=None if seat is None else tuple(self.hands[seat]),
            top_discard=self.discard_pile[-1] if self.discard_pile else None,
            stock_size=len(self.stock),
            card_counts=tuple(len(hand) for hand in self.hands),
            shown_melds=tuple(tuple(tuple(meld) for meld in melds) for melds in self.shown_melds),
            went_out=self.went_out,
            last_turns=self.last_turns,
            drawn_from_discard=self.drawn_from_discard,
            scores=tuple(tuple(result.penalties) for result in self.round_results),
            round_results=tuple(self.round_results),
            totals=tuple(self.totals),
            is_over=self.is_over,
            winners=tuple(self.winners),
            legal_actions=tuple(self.legal_actions()) if my_turn else (),
            pile_events=tuple(self.pile_events),
        )

    # -- serialization -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "round_index": self.round_index,
            "to_move": self.to_move,
            "phase": self.phase,
            "hands": [tokens_of(hand) for hand in self.hands],
            "stock": tokens_of(self.stock),
            "discard_pile": tokens_of(self.discard_pile),
            "went_out": self.went_out,
            "shown_melds": [melds_to_json(melds) for melds in self.shown_melds],
            "drawn_from_discard": (
                None if self.drawn_from_discard is None else token_of(self.drawn_from_discard)
            ),
            "turns_played": self.turns_played,
            "reshuffles": self.reshuffles,
            "pending_results": [
                None if result is None else result.to_dict() for result in self.pending_results
            ],
            "round_results": [result.to_dict() for result in self.round_results],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "action_count": self.action_count,
            "pile_events": pile_events_to_json(self.pile_events),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"unknown game state format {data.get('format')!r}")
        state = cls(Rules.from_dict(data["rules"]), data["players"], data["seed"], 0)
        state.first_dealer = data["first_dealer"]
        state.round_index = data["round_index"]
        state.to_move = data["to_move"]
        state.phase = data["phase"]
        state.hands = [cards_of(hand) for hand in data["hands"]]
        state.stock = cards_of(data["stock"])
        state.discard_pile = cards_of(data["discard_pile"])
        state.went_out = data["went_out"]
        state.shown_melds = [[cards_of(meld) for meld in melds] for melds in data["shown_melds"]]
        taken = data["drawn_from_discard"]
        state.drawn_from_discard = None if taken is None else card_of(taken)
        state.turns_played = data["turns_played"]
        state.reshuffles = data["reshuffles"]
        state.pending_results = [
            None if item is None else SeatResult.from_dict(item) for item in data["pending_results"]
        ]
        state.round_results = [RoundResult.from_dict(item) for item in data["round_results"]]
        state.totals = list(data["totals"])
        state.winners = list(data["winners"])
        state.action_count = data["action_count"]
        state.pile_events = pile_events_from_json(data.get("pile_events", ()))  # older: none
        return state

    # Mutable, so unhashable: defining __eq__ without __hash__ sets __hash__ to None.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"<GameState {self.players}p round {self.round_index + 1}/{self.round_count} "
            f"{self.phase} to_move={self.to_move} actions={self.action_count}>"
        )
