"""PHH hand histories (SPEC §9): the parser's checks and the exporter's output.

The exporter is checked against hands dealt from decks built here, card by card, so the expected
deal lines follow from SPEC §2's pass order (two down cards, then the door cards, one card per
later street) and are written out below by hand.
"""

from __future__ import annotations

import tomllib

import pytest

from bot.engine.betting.stakes import TableStakes
from bot.engine.cards.card import FULL_DECK, Card, Rank, parse_cards
from bot.engine.games.rulings import Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.phh.export import export_phh
from bot.engine.phh.history import PhhError, player_label
from bot.engine.phh.parser import parse_phh

BASE = """
variant = "F7S"
antes = [5, 5, 5]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [1000, 1000, 1000]
"""


def history(actions: str = '["d dh p1 Ah3cQc"]', base: str = BASE, extra: str = "") -> str:
    return base + f"actions = {actions}\n" + extra


def deck_from(prefix: str) -> list[Card]:
    """A full deck whose top cards are ``prefix`` (in that order), the rest in FULL_DECK order."""
    top = parse_cards(prefix)
    return top + [c for c in FULL_DECK if c not in set(top)]


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------


def test_parses_every_action_kind_with_positions() -> None:
    text = history(
        """[
  "d dh p1 Ah3cQc",   # comment after the string
  "d dh p2 Kh7c5h",
  "d dh p3 8dJs2d",
  "p1 pb # the queen brings in",
  "p2 cbr 20",
  "p3 cc",
  "p1 f",
  "",
  "# a lone commentary",
  "d dh p2 9s",
  "d db 7d",
  "p2 sm Kh7c5h9s",
  "p3 sm -",
  "p1 sm",
]"""
    )
    h = parse_phh(text)
    kinds = [a.kind for a in h.actions]
    assert kinds == ["dh", "dh", "dh", "pb", "cbr", "cc", "f", "noop", "noop", "dh", "db", "sm", "sm", "sm"]
    # The actions array starts on line 8 of the text (BASE begins with an empty line).
    assert [a.line for a in h.actions] == list(range(9, 23))
    assert h.actions[0].player == 0 and [c.code for c in h.actions[0].cards] == ["Ah", "3c", "Qc"]
    assert h.actions[3].commentary == "the queen brings in"
    assert h.actions[4].amount == 20 and h.actions[4].label == "p2"
    assert h.actions[8].commentary == "a lone commentary"
    assert h.actions[10].player is None and h.actions[10].label == "d"
    shown, dash, muck = h.actions[11:]
    assert len(shown.cards) == 4 and not shown.is_muck and not shown.show_dealt
    assert dash.show_dealt and not dash.is_muck
    assert muck.is_muck


def test_line_numbers_survive_repeated_actions_on_one_line() -> None:
    text = history('["d dh p1 Ah3cQc", "p2 cc",\n  "p2 cc", "p3 cc"]')
    h = parse_phh(text)
    assert [a.line for a in h.actions] == [8, 8, 9, 9]


def test_fields_and_game_extensions() -> None:
    extra = """players = ["Ann", "Bob", ""]
seats = [2, 5, 7]
finishing_stacks = [995, 1010, 995]
winnings = [0, 20, 0]
hand = 12
_wild_ranks = ["5", "2", "j"]
_wild_events = [{ five = "5h", seat = "p2", street = 3, follow_card = "2d", follow_seat = "p3", rank = "2" }]
_deck_commitment = { sha256 = "ab", salt = "cd" }

[_rulings]
five_follows_five = "absorb"
"""
    h = parse_phh(history(extra=extra))
    assert h.players == ("Ann", "Bob", "") and h.name(0) == "Ann" and h.name(2) == "p3"
    assert h.seats == (2, 5, 7)
    assert h.finishing_stacks == (995, 1010, 995) and h.winnings == (0, 20, 0)
    assert h.wild_ranks == (Rank.FIVE, Rank.TWO, Rank.JACK)
    assert h.wild_events is not None
    event = h.wild_events[0]
    assert (event.five, event.seat, event.follow_card, event.follow_seat, event.rank) == (
        Card.parse("5h"), 1, Card.parse("2d"), 2, Rank.TWO)
    assert h.rulings == {"five_follows_five": "absorb"}
    assert h.deck_commitment == {"sha256": "ab", "salt": "cd"}
    assert h.extra == {"hand": 12}
    assert h.stakes_dict() == {"structure": "fixed-limit", "ante": 5, "bring_in": 10, "small_bet": 20,
                               "big_bet": 40}


@pytest.mark.parametrize(("variant", "structure"), [("P7S", "pot-limit"), ("N7S", "no-limit")])
def test_pot_and_no_limit_use_min_bet(variant: str, structure: str) -> None:
    base = f'variant = "{variant}"\nantes = [1, 1]\nbring_in = 2\nmin_bet = 4\nstarting_stacks = [50, 60]\n'
    h = parse_phh(history('["d dh p1 Ah3cQc"]', base=base))
    assert h.structure == structure and h.min_bet == 4 and h.small_bet is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (history(base=BASE.replace("F7S", "NS")), "variant 'NS' is not a game Wildstud deals"),
        (history(base=BASE.replace("F7S", "NT")), "bring_in has no place in NT"),
        (history(base=BASE.replace("small_bet = 20\n", "")), "missing field small_bet"),
        (history(base=BASE + "min_bet = 20\n"), "min_bet is for pot and no limit"),
        (history(base=BASE + "blinds_or_straddles = [1, 2, 0]\n"), "blinds_or_straddles has no place"),
        (history(base=BASE.replace("[5, 5, 5]", "[5, 5]")), r"one entry per player \(3\)"),
        (history(base=BASE.replace("[5, 5, 5]", "[5, 0, 5]")), "antes must be the same"),
        (history(base=BASE.replace("bring_in = 10", "bring_in = 10.5")), "whole chips"),
        (history(base=BASE.replace("[1000, 1000, 1000]", "[1000, 0, 1000]")), "more than zero"),
        (history(base=BASE.replace("[1000, 1000, 1000]", "[1000]")), "2 to 8 players"),
        (history('"p1 cc"'), "actions must be an array of strings"),
        ("variant = [", "not valid TOML"),
        (history(extra='players = ["a"]\n'), "players must be an array of 3 strings"),
        (history(extra='_wild_ranks = ["X"]\n'), "_wild_ranks"),
        (history(extra='_rulings = "chain"\n'), "_rulings must be a table"),
        # _wild_events entries with a card that is not a string, or without a rank: a PhhError
        # naming the entry and the field (these used to escape as AttributeError / "'rank'").
        (history(extra='_wild_events = [{rank = "2", five = 5}]\n'), r"_wild_events\[0\]: five"),
        (history(extra='_wild_events = [{rank = "2", five = "5h", follow_card = 2}]\n'),
         r"_wild_events\[0\]: follow_card"),
        (history(extra='_wild_events = [{five = "5h"}]\n'), r"_wild_events\[0\]: missing rank"),
    ],
)
def test_bad_fields_are_refused(text: str, message: str) -> None:
    with pytest.raises(PhhError, match=message) as info:
        parse_phh(text)
    assert info.value.index is None


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("p4 cc", "p4 does not exist: this hand has 3 players"),
        ("p0 cc", "expected a player like p1"),
        ("p1 xx", "unknown action 'xx'"),
        ("p1 cbr", "expected 'pN cbr AMOUNT'"),
        ("p1 cbr ten", "whole number of chips"),
        ("p1 cbr 0", "above zero"),
        # PHH amounts are plain decimal integers; Python's int() would also take these three.
        ("p1 cbr 2_0", "whole number of chips"),
        ("p1 cbr +20", "whole number of chips"),
        ("p1 cbr \uff12\uff10", "whole number of chips"),  # fullwidth digits "２０"
        ("p1 cc 20", "'cc' takes no argument"),
        ("p1 sd", "for draw games"),
        ("d dh p1", "expected 'd dh pN CARDS'"),
        ("d dh p1 Ah??", "unknown cards"),
        ("d dh p1 Ax", "bad card"),
        ("d db 7d8d", "exactly one card"),
        ("d dx 7d", "unknown dealer action"),
    ],
)
def test_bad_actions_name_their_position(action: str, message: str) -> None:
    text = history(f'[\n  "d dh p1 Ah3cQc",\n  "{action}",\n]')
    with pytest.raises(PhhError, match=message) as info:
        parse_phh(text)
    assert info.value.index == 1
    assert info.value.line == 10
    assert str(info.value).startswith("action 2 (line 10): ")


def test_player_label() -> None:
    assert [player_label(s) for s in range(3)] == ["p1", "p2", "p3"]


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------

# Three players, a deck in a known order: third street is dealt in passes, so the first 9 cards
# go p1 p2 p3 (down), p1 p2 p3 (down), p1 p2 p3 (door).  Doors: p1 Kd, p2 7c, p3 3h -> 3h is the
# lowest: p3 brings in.
THREE = "Ah 2c 9s  Ad 4c Ts  Kd 7c 3h  Qs Js 8d  6c 6d Jh  Qc Kc 9c  Tc Th 2d"


def test_export_writes_deal_lines_per_seat_and_street() -> None:
    hand = StudHand([1000] * 3, TableStakes(), source=deck_from(THREE))
    assert hand.actor == 2
    hand.bring_in(2)
    hand.call(0)
    hand.fold(1)                     # everyone called or folded: no option for the bring-in
    assert hand.street == 4
    text = export_phh(hand, header=False)
    data = tomllib.loads(text)
    assert data["actions"][:3] == ["d dh p1 AhAdKd", "d dh p2 2c4c7c", "d dh p3 9sTs3h"]
    assert data["actions"][3:6] == ["p3 pb", "p1 cc", "p2 f"]


def test_export_of_a_played_hand_round_trips() -> None:
    # Fourth street (p2 folded): p1 Qs, p3 Js; fifth: p1 8d, p3 6c; sixth: p1 6d, p3 Jh;
    # seventh (down): p1 Qc, p3 Kc.
    hand = StudHand([1000] * 3, TableStakes(), source=deck_from(THREE))
    hand.bring_in(2)                 # p3 (3h)
    hand.bet_or_raise_to(0, 20)      # p1 completes
    hand.fold(1)
    hand.call(2)
    while not hand.is_over:          # check it down
        hand.check(hand.actor)  # type: ignore[arg-type]
    text = export_phh(hand, players=["Ann", "Bob", "Cy"], seats=[1, 4, 6], fields={"hand": 7})
    assert text.startswith("# Wildstud hand history")
    data = tomllib.loads(text)
    assert data["variant"] == "F7S" and data["antes"] == [5, 5, 5] and data["bring_in"] == 10
    assert data["small_bet"] == 20 and data["big_bet"] == 40 and "min_bet" not in data
    assert data["players"] == ["Ann", "Bob", "Cy"] and data["seats"] == [1, 4, 6] and data["hand"] == 7
    deals = [a for a in data["actions"] if a.startswith("d ")]
    assert deals == ["d dh p1 AhAdKd", "d dh p2 2c4c7c", "d dh p3 9sTs3h",
                     "d dh p1 Qs", "d dh p3 Js", "d dh p1 8d", "d dh p3 6c",
                     "d dh p1 6d", "d dh p3 Jh", "d dh p1 Qc", "d dh p3 Kc"]
    shows = [a for a in data["actions"] if " sm " in a]
    assert sorted(shows) == ["p1 sm AhAdKdQs8d6dQc", "p3 sm 9sTs3hJs6cJhKc"]
    # Only Sex in the Middle East's rulings (SPEC §3-§6), and the game (issue 12).
    sitme = ("follow_target", "five_follows_five", "wild_in_flush", "natural_wins_ties", "showing_hand",
             "high_hand_tiebreak", "open_pair_double", "raise_cap", "heads_up_uncapped", "burn_cards",
             "odd_chip")
    assert data["_rulings"] == {name: Rulings().to_dict()[name] for name in sitme}
    assert data["_game"] == "sex-in-the-middle-east"
    assert data["_wild_ranks"] == ["5"] and data["_wild_events"] == []
    result = hand.result
    assert result is not None
    assert data["finishing_stacks"] == list(result.final_stacks)
    assert data["winnings"] == list(result.winnings)
    again = parse_phh(text)
    assert again.finishing_stacks == result.final_stacks


def test_export_names_the_wild_events_and_a_community_card() -> None:
    # Eight players, nobody folds: 48 cards to sixth street, 4 left -> community card.  Door cards
    # (cards 17-24): the first door goes to p1.  Put a 5 face up as p8's sixth-street card (card 48)
    # and 7d as the 49th card: the community card, which makes sevens wild.
    order = [c for c in FULL_DECK if c.code not in ("5h", "7d", "5c", "5d", "5s")]
    order = order[:47] + parse_cards("5h 7d") + order[47:] + parse_cards("5c 5d 5s")
    hand = StudHand([1000] * 8, TableStakes(), source=order)
    while not hand.is_over:
        actor = hand.actor
        assert actor is not None
        legal = hand.legal_actions(actor)
        if legal.bring_in is not None:
            hand.bring_in(actor)
        else:
            hand.check_or_call(actor)
    assert hand.community_card == Card.parse("7d")
    data = tomllib.loads(export_phh(hand))
    assert "d db 7d" in data["actions"]
    assert data["_wild_ranks"] == ["5", "7"]
    assert data["_wild_events"] == [{"five": "5h", "seat": "p8", "street": 6, "follow_card": "7d",
                                     "follow_seat": "", "rank": "7", "how": "follow"}]


def test_export_hides_cards_nobody_showed_when_asked() -> None:
    hand = StudHand([1000] * 3, TableStakes(), source=deck_from(THREE))
    hand.bring_in(2)
    hand.fold(0)
    hand.fold(1)
    public = tomllib.loads(export_phh(hand, hide_unshown=True))
    assert public["actions"][:3] == ["d dh p1 ????Kd", "d dh p2 ????7c", "d dh p3 ????3h"]
    with pytest.raises(PhhError, match="unknown cards"):
        parse_phh(export_phh(hand, hide_unshown=True))


def test_export_of_a_hand_in_progress_and_timeouts() -> None:
    hand = StudHand([1000] * 3, TableStakes(), source=deck_from(THREE))
    hand.timeout(2)                  # the bring-in is posted for p3
    hand.call(0)
    text = export_phh(hand)
    data = tomllib.loads(text)
    assert "# The hand is still in progress." in text
    assert data["actions"][3:] == ["p3 pb  # timed out", "p1 cc"]
    assert data["finishing_stacks"] == [985, 1000 - 5, 985] and data["winnings"] == [0, 0, 0]


def test_export_refuses_wrong_lengths_and_reserved_fields() -> None:
    hand = StudHand([1000] * 3, TableStakes(), source=deck_from(THREE))
    with pytest.raises(ValueError, match="players must name 3"):
        export_phh(hand, players=["a"])
    with pytest.raises(ValueError, match="seats must list 3"):
        export_phh(hand, seats=[1, 2])
    with pytest.raises(ValueError, match="may not set 'actions'"):
        export_phh(hand, fields={"actions": []})


def test_export_pot_limit_variant_code() -> None:
    stakes = TableStakes.pot_limit(ante=1, bring_in=2, min_bet=4)
    hand = StudHand([100, 100], stakes, source=deck_from("Ah 2c Ad 4c Kd 7c"))
    data = tomllib.loads(export_phh(hand))
    assert data["variant"] == "P7S" and data["min_bet"] == 4 and "small_bet" not in data
    no_limit = StudHand([100, 100], TableStakes.no_limit(ante=1, bring_in=2, min_bet=4),
                        source=deck_from("Ah 2c Ad 4c Kd 7c"))
    assert tomllib.loads(export_phh(no_limit))["variant"] == "N7S"
