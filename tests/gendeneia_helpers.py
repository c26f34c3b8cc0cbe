"""Helpers for Gendeneía tests: arranging hands and lots without breaking card conservation."""

from __future__ import annotations

from gendeneia_env.cards import parse_card, parse_pair
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
from gendeneia_env.scoring import LOT_NAMES


def _take(game: GendeneiaGame, card: int) -> None:
    """Remove a card from wherever it is (a pile, a hand, a lot)."""
    for pile in game.piles.values():
        for stack in (pile.draw, pile.discard):
            if card in stack:
                stack.remove(card)
                return
    for hand in game.hands:
        for i, c in enumerate(hand):
            if c == card:
                hand[i] = None
                return
    for lot in game._all_lots():
        for pair in lot:
            if card in pair:
                lot.remove(pair)
                other = pair[1] if pair[0] == card else pair[0]
                game._discard([other])
                return
    raise AssertionError(f"card {card} is nowhere")


def arrange(
    game: GendeneiaGame,
    hands: dict[int, str] | None = None,
    lots: dict[int, dict[str, list[str]]] | None = None,
    round_lots: dict[str, list[str]] | None = None,
    draw_top: dict[str, list[str]] | None = None,
) -> GendeneiaGame:
    """Give seats the hands (``"3B/5Q"``) and lot contents asked for, and put cards on top of
    the draw piles (``{"choice": ["4H"], "force": ["2W"]}``, next drawn first). Every other
    card stays somewhere, so all 72 are still in play once each."""
    for seat, pair in (hands or {}).items():
        old = [c for c in game.hands[seat] if c is not None]
        game.hands[seat] = [None, None]
        game._discard(old)
        choice, force = parse_pair(pair)
        _take(game, choice)
        _take(game, force)
        game.hands[seat] = [choice, force]
    targets = [(game.lots[s], spec) for s, spec in (lots or {}).items()]
    if round_lots is not None:
        targets.append((game.temp_lots, round_lots))
    for seat_lots, spec in targets:
        for name, pairs in spec.items():
            index = LOT_NAMES.index(name)
            for text in pairs:
                choice, force = parse_pair(text)
                _take(game, choice)
                _take(game, force)
                seat_lots[index].append((choice, force))
                if seat_lots is game.temp_lots:
                    game._temp_order.append((index, (choice, force)))
    for kind, cards in (draw_top or {}).items():
        for text in reversed(cards):
            c = parse_card(text)
            _take(game, c)
            game.piles[kind].draw.append(c)
    game._legal = None
    assert sorted(game.card_locations()) == list(range(72))
    return game


def new_game(num_players=3, first_player=0, seed=0, **rules) -> GendeneiaGame:
    return GendeneiaGame(
        GendeneiaConfig(num_players=num_players, **rules), seed=seed, first_player=first_player
    )
