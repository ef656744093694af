"""What a replay returns, and the settings it reads from a history (SPEC §9).

``ReplayError`` (its ``kind`` one of ``ERROR_KINDS``) says what is wrong with a history and where;
``ReplayReport`` is the outcome of :func:`bot.engine.replay.replayer.replay`; ``stakes_of`` and
``rulings_of`` give a history's stakes and rulings as the engine's types.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine.betting.stakes import TableStakes
from bot.engine.errors import StakesError
from bot.engine.games.rulings import FlopAnte, Rulings
from bot.engine.hand.hand import StudHand
from bot.engine.hand.options import HandOptions, Post
from bot.engine.phh.history import HandHistory

ERROR_KINDS = ("format", "illegal-action", "cards", "mismatch", "variant")
"""``format``: not a readable stud PHH file (or bad stakes/rulings); ``variant``: a history of a
game Wildstud does not deal (hold'em, Omaha...); ``illegal-action``: the
engine refused an action; ``cards``: the deal or show lines do not fit the deal; ``mismatch``:
every action was legal but a recorded result differs from the engine's."""



@dataclass(frozen=True, slots=True)
class ReplayError:
    """What is wrong with a history.

    ``kind`` is one of :data:`ERROR_KINDS`. ``index``/``line``/``action`` locate the offending
    action (0-based position in ``actions``, 1-based file line, its text) when there is one; for a
    mismatch ``field`` names the recorded field (and ``line`` is that field's line), ``recorded``
    and ``engine`` give both values.
    """

    kind: str
    reason: str
    index: int | None = None
    line: int | None = None
    action: str | None = None
    field: str | None = None
    recorded: Any = None
    engine: Any = None

    @property
    def where(self) -> str:
        """``"action 5 (line 17)"``, ``"finishing_stacks (line 40)"`` or ``""``."""
        if self.index is not None:
            return f"action {self.index + 1}" + (f" (line {self.line})" if self.line is not None else "")
        if self.field is not None:
            return self.field + (f" (line {self.line})" if self.line is not None else "")
        return ""

    def __str__(self) -> str:
        where = self.where
        quoted = f" {self.action.strip()!r}" if self.action else ""
        return f"{where}{quoted}: {self.reason}" if where else self.reason

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``kind``, ``reason``, ``index``, ``line``, ``action``, ``position``
        (the 1-based action number) and, for a mismatch, ``field``, ``recorded``, ``engine``."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "reason": self.reason,
            "index": self.index,
            "position": None if self.index is None else self.index + 1,
            "line": self.line,
            "action": self.action.strip() if self.action else None,
            "message": str(self),
        }
        if self.field is not None:
            out.update(field=self.field, recorded=self.recorded, engine=self.engine)
        return out


@dataclass
class ReplayReport:
    """The outcome of a replay.

    ``history``: the parsed history (``None`` if it could not be read). ``hand``: the engine's hand
    as far as the replay got (``None`` if it could not even be dealt). ``error``: the first problem,
    or ``None``. ``applied``: how many entries of ``actions`` were applied. ``spans``: for each
    applied action, ``(index, first_event, end_event)`` -- the engine events it caused (events
    before the first action come from the antes and the third-street deal).
    ``auto_shown``: seats the replay showed because the history left the showdown open.
    ``checked``: the recorded results were compared with the engine's (``check_results``).
    """

    history: HandHistory | None
    hand: StudHand | None = None
    error: ReplayError | None = None
    applied: int = 0
    spans: list[tuple[int, int, int]] = field(default_factory=list)
    auto_shown: list[int] = field(default_factory=list)
    checked: bool = False

    @property
    def ok(self) -> bool:
        """No error."""
        return self.error is None

    @property
    def complete(self) -> bool:
        """The hand reached its end."""
        return self.hand is not None and self.hand.is_over


def stakes_of(history: HandHistory) -> TableStakes:
    """The history's stakes as ``TableStakes`` (raises ``StakesError``, a ``ValueError``). A draw
    game has no bring-in: the stakes get a nominal one (1) that no street uses."""
    unit = history.small_bet if history.structure == "fixed-limit" else history.min_bet
    assert unit is not None
    bring_in = history.bring_in or max(1, unit // 2)       # a draw game: a nominal bring-in, unused
    if history.structure == "fixed-limit":
        assert history.big_bet is not None
        stakes = TableStakes.fixed_limit(ante=history.ante, bring_in=bring_in, small_bet=unit,
                                         big_bet=history.big_bet)
    else:
        make = TableStakes.pot_limit if history.structure == "pot-limit" else TableStakes.no_limit
        stakes = make(ante=history.ante, bring_in=bring_in, min_bet=unit)
    blinds = history.blinds_or_straddles if history.bring_in == 0 else ()
    if not blinds:
        return stakes
    if history.ante:
        raise StakesError("Wildstud deals triple draw and badugi with blinds and no ante")
    small, big = [*blinds, 0, 0][:2]
    stakes = stakes.with_blinds(small, big)
    if unit != big or (history.big_bet is not None and history.big_bet != 2 * big):
        raise StakesError(f"a game with blinds bets the big blind ({big}), and twice it in fixed limit's "
                          f"big bet; this history bets {unit}" + (f"/{history.big_bet}" if history.big_bet
                                                                   else ""))
    return stakes


def rulings_of(history: HandHistory) -> Rulings:
    """The history's ``_rulings`` as ``Rulings`` (defaults for the rest; raises ``RulingError``)."""
    return Rulings.from_dict(dict(history.rulings))


def flop_setup(history: HandHistory, rulings: Rulings) -> tuple[TableStakes, Rulings, HandOptions]:
    """A flop game's stakes, rulings and hand options from its forced bets (raises ``StakesError``
    or ``RulingError``, ``ValueError``s, naming the field).

    ``blinds_or_straddles`` is the small blind, the big blind and a straddle of twice the big blind
    (``HandOptions.straddle``); no blinds and one ante from everyone is a bomb pot; antes from
    everyone with the blinds are ``flop_ante = per-player``, the big blind's entry alone (index 1,
    as much as the big blind) ``flop_ante = big-blind`` -- as ``_rulings`` says, or as the antes
    say when the file has no ``_rulings`` (pokerkit's). Wildstud bets in big blinds: fixed limit
    bets the big blind and twice it, pot and no limit's smallest bet is the big blind."""
    n = history.player_count
    blinds, antes = history.blinds_or_straddles, history.antes
    if not any(blinds):
        if len(set(antes)) != 1 or not antes[0]:
            raise StakesError(f"blinds_or_straddles: a hand without blinds is a bomb pot, where every "
                              f"player antes the same, not antes = {list(antes)}")
        options = HandOptions(bomb_pot=antes[0])
        # No blinds are posted; the bets after the flop are still in big blinds.
        bet = history.small_bet if history.structure == "fixed-limit" else history.min_bet
        assert bet is not None
        small, big, ante = max(1, bet // 2), bet, 0
    else:
        small, big = blinds[0], blinds[1]
        if big <= 0 or small > big:
            raise StakesError(f"blinds_or_straddles must start with the small blind and a bigger big "
                              f"blind, got {list(blinds[:2])}")
        straddle = blinds[2] if n > 2 else 0
        if any(blinds[3:]) or straddle not in (0, 2 * big) or (straddle and n < 4):
            raise StakesError(f"blinds_or_straddles: Wildstud's straddle is twice the big blind, under "
                              f"the gun with four players or more, not {list(blinds)}")
        options = HandOptions(straddle=bool(straddle),
                              posts=tuple(Post(seat, live, dead) for seat, live, dead in history.posts))
        ante = 0
        implied: FlopAnte = "none"
        if any(antes) and len(set(antes)) == 1:
            implied, ante = "per-player", antes[0]
        elif any(antes) and antes[1] == big and not any(a for i, a in enumerate(antes) if i != 1):
            implied = "big-blind"
        elif any(antes):
            raise StakesError(f"antes must be the same for everyone, or the big blind's alone (as much "
                              f"as the big blind), not {list(antes)}")
        said = rulings.flop_ante
        if said == "none" and implied != "none":
            rulings = replace(rulings, flop_ante=implied)
        elif said != implied and (said, implied) != ("per-player", "none"):
            raise StakesError(f"antes = {list(antes)} is not what _rulings.flop_ante = {said} posts")
    if history.structure == "fixed-limit":
        if (history.small_bet, history.big_bet) != (big, 2 * big):
            raise StakesError(f"fixed limit bets the big blind and twice it: small_bet = {big} and "
                              f"big_bet = {2 * big}, not {history.small_bet} and {history.big_bet}")
        stakes = TableStakes.fixed_limit(ante=ante, bring_in=1, small_bet=2 * big, big_bet=4 * big)
    else:
        if history.min_bet != big:
            raise StakesError(f"the smallest bet is the big blind: min_bet = {big}, not {history.min_bet}")
        make = TableStakes.pot_limit if history.structure == "pot-limit" else TableStakes.no_limit
        stakes = make(ante=ante, bring_in=1, min_bet=2 * big)
    return stakes.with_blinds(small, big), rulings, options
