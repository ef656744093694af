"""``/table``: open a table in a channel, take and leave seats, deal, look at it, close it.

``/table create`` posts the table message in the channel, carrying "Join" and "Deal" buttons (the
creator gets a private confirmation); the presenter keeps editing that one message (see
``bot.discord.presenter``). Stakes come from a preset
(``micro small medium pot-limit no-limit``) or explicit amounts, optionally starting from a preset.
``seats`` caps the table (2-8); ``timer`` is the seconds each player has to act (0: no timer);
``log`` is where each finished hand's full log goes (``thread | summary | off``, default
``summary``; kept with the table's options). ``/table look pictures | pictures-two-colour | text``
(Manage Server) sets how the server's tables are drawn (a four-colour deck by default);
``/table dm every-street | down-cards`` is each player's choice of when their cards come by DM.
Both are kept in the store.
``game`` is the table's game (autocomplete: the games, or ``dealers-choice``). ``/table game NAME``
changes it from the next deal (announced before it, like a ruling) and ``/table games NAMES`` sets
the list a dealer's choice picks from (``bot.tables.games``).

Only the dealer deals and closes: the table's creator, members with the server's dealer role, or
Manage Server (SPEC §8). A table closes between hands; mid-hand the refusal says the dealer can
``/hand void`` the hand first (``cogs.hand``). The table service decides everything else; this cog
only parses, checks who is asking, calls it and answers.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.ui.common import (
    Interaction,
    actor,
    reply,
    require_channel_access,
    table_key,
)
from bot.discord.ui.games import GameSelect
from bot.discord.ui.lobby import DealButton, JoinButton, deal
from bot.discord.ui.table import DM_MODES, LOOKS
from bot.discord.ui.text import code_block
from bot.engine.betting.stakes import PRESETS, STRUCTURES, TableStakes
from bot.engine.games.catalogue import DEALERS_CHOICE, GAMES
from bot.render.cards import chips
from bot.render.settings import stakes_line
from bot.tables.games import (
    FAMILY_TITLES,
    GameSettings,
    check_game_setting,
    dealable_games,
    games_by_family,
    setting_stakes,
    setting_title,
)
from bot.tables.notices import Actor, TableKey
from bot.tables.options import JOIN_BLIND, LOG_MODES, TableOptions
from bot.tables.service import MAX_SEATS

if TYPE_CHECKING:
    from bot.discord.client import WildstudBot

log = logging.getLogger(__name__)

DEFAULT_TIMER = 60
"""Seconds to act at a new Discord table (SPEC §7)."""


def build_stakes(
    preset: str | None,
    structure: str | None,
    amounts: dict[str, int | None],
    current: TableStakes | None = None,
) -> TableStakes:
    """Stakes from a preset and/or explicit amounts (``ante bring_in small_bet big_bet min_bet
    min_buy_in max_buy_in``; None means "not given").

    Amounts not stated come from the preset, else from ``current`` (a table's stakes now) when the
    structure stays the same, else from the ``small`` preset (or the ``pot-limit``/``no-limit``
    preset for those structures). When bet sizes are stated but buy-ins are not, the buy-ins are
    recomputed from them (``TableStakes.fixed_limit``/``pot_limit``/``no_limit`` defaults), and
    a fixed-limit big bet not stated is twice the small bet. Raises ``StakesError`` (a
    ``ValueError``) for stakes that do not make sense.

    >>> build_stakes("micro", None, {}).describe()
    'fixed limit 2/4, ante 1 and bring-in 1'
    >>> build_stakes(None, "no-limit", {"min_bet": 50, "bring_in": 25}).max_buy_in
    10000
    >>> build_stakes(None, None, {"small_bet": 50, "bring_in": 20}).describe()
    'fixed limit 50/100, ante 5 and bring-in 20'
    """
    given = {k: v for k, v in amounts.items() if v is not None}
    if preset is not None:
        base = PRESETS[preset]
    elif current is not None and structure in (None, current.structure):
        base = current
    elif structure in ("pot-limit", "no-limit"):
        base = PRESETS[structure]
    else:
        base = PRESETS["small"]
    values: dict[str, Any] = base.to_dict()
    if structure is not None and structure != base.structure:
        other = PRESETS["small"] if structure == "fixed-limit" else PRESETS[structure]
        values = other.to_dict()
    values.update(given)
    if "min_buy_in" in given or "max_buy_in" in given or not set(given) & {"small_bet", "big_bet", "min_bet"}:
        return TableStakes.from_dict(values)
    if values["structure"] == "fixed-limit":
        big = values["big_bet"] if "big_bet" in given else 2 * values["small_bet"]
        return TableStakes.fixed_limit(
            ante=values["ante"], bring_in=values["bring_in"], small_bet=values["small_bet"], big_bet=big
        )
    make = TableStakes.pot_limit if values["structure"] == "pot-limit" else TableStakes.no_limit
    return make(ante=values["ante"], bring_in=values["bring_in"], min_bet=values["min_bet"])


_PRESET_CHOICES = [
    app_commands.Choice(name=f"{name}: {preset.describe()}"[:100], value=name)
    for name, preset in PRESETS.items()
]
_STRUCTURE_CHOICES = [app_commands.Choice(name=s, value=s) for s in STRUCTURES]
_LOG_CHOICES = [app_commands.Choice(name=m, value=m) for m in LOG_MODES]
_LOOK_CHOICES = [app_commands.Choice(name=m, value=m) for m in LOOKS]
_DM_CHOICES = [app_commands.Choice(name=m, value=m) for m in DM_MODES]


def game_choices(current: str, *, dealers_choice: bool = False) -> list[app_commands.Choice[str]]:
    """The games the engine deals whose name or title contains what was typed (and
    ``dealers-choice`` when ``dealers_choice``), each shown with its short rules.

    >>> [c.value for c in game_choices("stud")]
    ['seven-card-stud', 'seven-card-stud-hi-lo']
    >>> [c.value for c in game_choices("dealer", dealers_choice=True)]
    ['dealers-choice']
    """
    typed = current.strip().lower().replace(" ", "-")
    found: list[app_commands.Choice[str]] = []
    if dealers_choice and typed in DEALERS_CHOICE:
        found.append(
            app_commands.Choice(name="dealers-choice: each dealer picks the game", value=DEALERS_CHOICE)
        )
    for name in dealable_games():
        game = GAMES[name]
        if typed in name or typed in game.title.lower().replace(" ", "-"):
            found.append(app_commands.Choice(name=f"{name}: {game.rules}"[:100], value=name))
    return found[:25]


def games_by_family_text(settings: GameSettings) -> str:
    """``/table games`` without names: the game setting, then every game by family (stud, flop,
    draw), the game of the next deal (or under dealer's choice each game on its list) in bold; the
    rules of each are in the autocomplete of ``/table game`` (twenty games with their rules would
    pass Discord's 2,000 characters).

    >>> from bot.tables.games import GameSettings
    >>> print(games_by_family_text(GameSettings("razz", None, ("razz",), None, None, ())).splitlines()[1])
    **Stud**
    """
    chosen = set(settings.allowed) if settings.game == DEALERS_CHOICE else {settings.game}
    lines = [f"Game: {setting_title(settings.game, settings.allowed)}"]
    for fam, names in games_by_family(dealable_games()):
        lines.append(f"**{FAMILY_TITLES[fam]}**")
        for name in names:
            title = f"**{GAMES[name].title}**" if name in chosen else GAMES[name].title
            lines.append(f"- {title} (`{name}`)")
    lines.append("/table game NAME sets the game (or dealers-choice); /table games NAMES sets the"
                 " dealer's-choice list.")
    return "\n".join(lines)


def straddle_text(options: TableOptions) -> str:
    """The confirmation of ``/table straddle``.

    >>> straddle_text(TableOptions(straddle=True))[:40]
    'Straddle on: in every flop hand the play'
    """
    if options.straddle:
        return ("Straddle on: in every flop hand the player under the gun posts twice the big blind and"
                " acts last before the flop (not heads-up), from the next deal.")
    return "Straddle off, from the next deal."


def bomb_pot_text(options: TableOptions) -> str:
    """The confirmation of ``/table bomb-pot every|off``.

    >>> bomb_pot_text(TableOptions(bomb_pot_every=10, bomb_pot_ante=100))[:59]
    'Every 10th hand that is a flop game is a bomb pot: everyone'
    """
    if options.bomb_pot_every is None:
        return "No bomb pots (the dealer may still call one: /table bomb-pot when:next)."
    n = options.bomb_pot_every
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    nth = "" if n == 1 else f" {n}{suffix}"
    ante = chips(options.bomb_pot_ante) if options.bomb_pot_ante else "five big blinds"
    return (f"Every{nth} hand that is a flop game is a bomb pot: everyone antes {ante}, no blinds and no"
            " betting before the flop.")


def split_games(text: str) -> list[str]:
    """A ``/table games`` list: comma separated, or (without a comma) space separated.

    >>> split_games("seven-card-stud deuces-wild"), split_games("Seven Card Stud, deuces wild")
    (['seven-card-stud', 'deuces-wild'], ['Seven Card Stud', ' deuces wild'])
    """
    return text.split(",") if "," in text else text.split()


def timer_options(timer: int | None) -> TableOptions:
    """Table options for ``timer`` seconds to act (None: the default, 0: no timer).

    The reminder comes at half the time.

    >>> timer_options(40).reminder_after
    20.0
    >>> timer_options(0).turn_timeout is None
    True
    """
    seconds = DEFAULT_TIMER if timer is None else timer
    if seconds <= 0:
        return TableOptions(turn_timeout=None, reminder_after=None)
    return TableOptions(turn_timeout=float(seconds), reminder_after=seconds / 2)


@app_commands.guild_only()
class Table(commands.GroupCog, group_name="table", group_description="Open, join and deal a Wildstud table"):
    """``/table create join leave sit-out back deal status look dm automuck close stakes game games timer
    straddle bomb-pot join-blind dealer-role``."""

    def __init__(self, bot: WildstudBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description="Open a table in this channel (you become its dealer)")
    @app_commands.describe(
        stakes="A stakes preset (default: small, fixed limit 20/40)",
        structure="Betting structure, when giving amounts yourself",
        ante="Ante in chips (0 for none)",
        bring_in="Bring-in in chips",
        small_bet="Fixed limit: the small bet (3rd and 4th street)",
        big_bet="Fixed limit: the big bet (5th to 7th street)",
        min_bet="Pot and no limit: the minimum bet",
        min_buy_in="Smallest buy-in",
        max_buy_in="Largest buy-in",
        seats="Most players at the table (2 to 8)",
        timer="Seconds each player has to act (0: no timer; default 60)",
        log_mode="Each finished hand's full log: in a thread, attached to the summary (default), or off",
        game="The game (default sex-in-the-middle-east), or dealers-choice: each dealer picks",
    )
    @app_commands.rename(log_mode="log")
    @app_commands.choices(stakes=_PRESET_CHOICES, structure=_STRUCTURE_CHOICES, log_mode=_LOG_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        stakes: str | None = None,
        structure: str | None = None,
        ante: app_commands.Range[int, 0] | None = None,
        bring_in: app_commands.Range[int, 1] | None = None,
        small_bet: app_commands.Range[int, 1] | None = None,
        big_bet: app_commands.Range[int, 1] | None = None,
        min_bet: app_commands.Range[int, 1] | None = None,
        min_buy_in: app_commands.Range[int, 1] | None = None,
        max_buy_in: app_commands.Range[int, 1] | None = None,
        seats: app_commands.Range[int, 2, 8] | None = None,
        timer: app_commands.Range[int, 0, 3600] | None = None,
        log_mode: str | None = None,
        game: str | None = None,
    ) -> None:
        key = table_key(interaction)
        setting = check_game_setting(game) if game is not None else None
        chosen = build_stakes(
            stakes,
            structure,
            {
                "ante": ante,
                "bring_in": bring_in,
                "small_bet": small_bet,
                "big_bet": big_bet,
                "min_bet": min_bet,
                "min_buy_in": min_buy_in,
                "max_buy_in": max_buy_in,
            },
        )
        options = replace(timer_options(timer), log=log_mode or "summary")
        require_channel_access(interaction)
        # Opening a table writes to the store and posts in the channel (which Discord may
        # rate-limit), so answer first, privately: a refusal stays the creator's business.
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.bot.service.create_table(
            key, await actor(interaction), stakes=chosen, options=options, max_seats=seats or MAX_SEATS,
            game=setting,
        )
        games = self.bot.service.games(key)
        described = setting_stakes(table.stakes, games.setting, games.allowed)
        text = (
            f"Your table is open ({stakes_line(table.stakes, described)};"
            f" {setting_title(games.setting, games.allowed)});"
            " you are its dealer. Players take a seat with Join on the table message or /table join;"
            " Deal starts a hand."
        )
        exc = self.bot.presenter.table_message_refusal(key)
        if exc is not None:
            log.warning("could not post the table message in %s: %s", key.channel, exc)
            text = (
                f"Your table is open ({stakes_line(table.stakes)}), but I couldn't post its table message"
                f" here (Discord said: {exc.text or exc.status}). Players can still /table join."
            )
        await reply(interaction, text)

    @app_commands.command(name="join", description="Take a seat, buying in from your chip balance")
    @app_commands.describe(buy_in="Chips to bring (default: as many as you have, up to the table's maximum)")
    async def join(self, interaction: Interaction, buy_in: app_commands.Range[int, 1] | None = None) -> None:
        key = table_key(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            seat = await self.bot.service.join(key, await actor(interaction), buy_in=buy_in)
            await reply(interaction, f"You sit in seat {seat.seat_no} with {chips(seat.stack)} chips.")

    async def _change_seat(
        self, interaction: Interaction, change: Callable[[TableKey, Actor], Awaitable[str]]
    ) -> None:
        """Run a seat change (leave, sit out, back) for the member and answer privately (the
        service's update redraws the table)."""
        key = table_key(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.presenter.responding(key, interaction):
            text = await change(key, await actor(interaction))
            await reply(interaction, text)

    @app_commands.command(name="leave", description="Leave the table (your chips go back to your balance)")
    async def leave(self, interaction: Interaction) -> None:
        await self._change_seat(interaction, self.bot.service.leave)

    @app_commands.command(name="sit-out", description="Sit out from the next hand (keep your seat)")
    async def sit_out(self, interaction: Interaction) -> None:
        await self._change_seat(interaction, self.bot.service.sit_out)

    @app_commands.command(name="back", description="Play again after sitting out or being away")
    async def back(self, interaction: Interaction) -> None:
        await self._change_seat(interaction, self.bot.service.back)

    @app_commands.command(name="deal", description="Deal the next hand (the dealer only)")
    async def deal(self, interaction: Interaction) -> None:
        table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await deal(interaction, who)

    @app_commands.command(
        name="status", description="Show the table: seats, stacks, pot, wild cards, whose turn"
    )
    async def status(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        table = self.bot.service.snapshot(key)
        text = self.bot.service.status_text(key)
        games = self.bot.service.games(key)
        extra: list[str] = [f"Stakes: {stakes_line(table.stakes)}",
                            f"Game: {setting_title(games.setting, games.allowed)}"]
        if games.pending is not None:
            extra.append(f"From the next deal: {setting_title(games.pending, games.allowed)}")
        if table.pending_stakes is not None or table.pending_rulings is not None:
            extra.append("Changes are waiting for the next deal (see /ruling list).")
        if table.turn_timeout is not None:
            extra.append(f"Timer: {table.turn_timeout:g} seconds to act.")
        await reply(interaction, code_block(text) + "\n" + "\n".join(extra))

    @app_commands.command(name="look", description="Show tables here as pictures or as text (Manage Server)")
    @app_commands.describe(
        look="pictures (the default, a four-colour deck), pictures-two-colour (red and black suits) or text"
    )
    @app_commands.choices(look=_LOOK_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def look(self, interaction: Interaction, look: str) -> None:
        key = table_key(interaction)
        await self.bot.presenter.set_look(key.guild, look)
        what = {"pictures": "pictures (a four-colour deck)",
                "pictures-two-colour": "pictures (a two-colour deck)"}.get(look, "text tables")
        await reply(interaction, f"Tables in this server show {what} from their next change.")

    @app_commands.command(name="dm", description="When I send you your cards by DM")
    @app_commands.describe(when="down-cards (third and seventh street, the default) or every-street")
    @app_commands.choices(when=_DM_CHOICES)
    async def dm(self, interaction: Interaction, when: str) -> None:
        key = table_key(interaction)
        await self.bot.presenter.set_dm_mode(key.guild, interaction.user.id, when)
        if when == "every-street":
            text = "I'll DM you your cards after every street."
        else:
            text = (
                "I'll DM you your cards when you get a down card (third and seventh street);"
                " My cards shows them any time."
            )
        await reply(interaction, text)

    @app_commands.command(name="close", description="Close the table between hands (the dealer only)")
    async def close(self, interaction: Interaction) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        returned = await self.bot.service.close_table(key, who)
        total = sum(returned.values())
        await reply(
            interaction, f"Table closed; {chips(total)} chips went back to {len(returned)} player(s)."
        )

    @app_commands.command(name="stakes", description="Change the stakes from the next deal (the dealer only)")
    @app_commands.describe(
        stakes="A stakes preset",
        structure="Betting structure",
        ante="Ante in chips (0 for none)",
        bring_in="Bring-in in chips",
        small_bet="Fixed limit: the small bet",
        big_bet="Fixed limit: the big bet",
        min_bet="Pot and no limit: the minimum bet",
        min_buy_in="Smallest buy-in",
        max_buy_in="Largest buy-in",
    )
    @app_commands.choices(stakes=_PRESET_CHOICES, structure=_STRUCTURE_CHOICES)
    async def stakes(
        self,
        interaction: Interaction,
        stakes: str | None = None,
        structure: str | None = None,
        ante: app_commands.Range[int, 0] | None = None,
        bring_in: app_commands.Range[int, 1] | None = None,
        small_bet: app_commands.Range[int, 1] | None = None,
        big_bet: app_commands.Range[int, 1] | None = None,
        min_bet: app_commands.Range[int, 1] | None = None,
        min_buy_in: app_commands.Range[int, 1] | None = None,
        max_buy_in: app_commands.Range[int, 1] | None = None,
    ) -> None:
        key = table_key(interaction)
        table = self.bot.service.snapshot(key)
        chosen = build_stakes(
            stakes,
            structure,
            {
                "ante": ante,
                "bring_in": bring_in,
                "small_bet": small_bet,
                "big_bet": big_bet,
                "min_bet": min_bet,
                "min_buy_in": min_buy_in,
                "max_buy_in": max_buy_in,
            },
            current=table.pending_stakes or table.stakes,
        )
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.bot.service.set_stakes(key, who, chosen)
        await reply(interaction, text)

    @create.autocomplete("game")
    async def _create_game(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current, dealers_choice=True)

    @app_commands.command(name="game", description="The game from the next deal (the dealer only)")
    @app_commands.describe(name="A game, or dealers-choice: each dealer picks from /table games")
    async def game(self, interaction: Interaction, name: str) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(interaction, await self.bot.service.set_game(key, who, name))

    @game.autocomplete("name")
    async def _game_name(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current, dealers_choice=True)

    @app_commands.command(
        name="games", description="The games by family; with names: the dealer's-choice list"
    )
    @app_commands.describe(names="Game names, separated by commas (or spaces): the games a dealer may choose"
                                 " (the dealer only)")
    async def games(self, interaction: Interaction, names: str | None = None) -> None:
        key = table_key(interaction)
        if names is None:
            await reply(interaction, games_by_family_text(self.bot.service.games(key)))
            return
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(interaction, await self.bot.service.set_games(key, who, split_games(names)))

    @games.autocomplete("names")
    async def _games_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        head, _, last = current.rpartition(",")
        prefix = f"{head}, " if head else ""
        return [
            app_commands.Choice(name=f"{prefix}{c.value}"[:100], value=f"{prefix}{c.value}"[:100])
            for c in game_choices(last)
        ][:25]

    @app_commands.command(name="timer", description="Seconds each player has to act (the dealer only)")
    @app_commands.describe(seconds="Seconds to act; 0 turns the timer off")
    async def timer(self, interaction: Interaction, seconds: app_commands.Range[int, 0, 3600]) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        wanted = timer_options(seconds)
        await interaction.response.defer(ephemeral=True, thinking=True)
        before = self.bot.service.current_prompt(key)
        timed_before = before is not None and before.deadline is not None
        options = await self.bot.service.set_options(
            key,
            who,
            turn_timeout=wanted.turn_timeout,
            reminder_after=wanted.reminder_after,
        )
        if options.turn_timeout is None:
            await reply(interaction, "No timer: players take as long as they need.")
            return
        text = f"Players have {options.turn_timeout:g} seconds to act, from the next turn."
        now = self.bot.service.current_prompt(key)
        if not timed_before and now is not None and now.deadline is not None:
            text = (
                f"Players have {options.turn_timeout:g} seconds to act, starting now for the player to act."
            )
        await reply(interaction, text)

    @app_commands.command(name="straddle", description="Flop games: a straddle every hand (the dealer only)")
    @app_commands.describe(setting="on: the player under the gun posts twice the big blind every hand and"
                                   " acts last before the flop")
    @app_commands.choices(setting=[app_commands.Choice(name="on", value="on"),
                                   app_commands.Choice(name="off", value="off")])
    async def straddle(self, interaction: Interaction, setting: app_commands.Choice[str]) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        options = await self.bot.service.set_options(key, who, straddle=setting.value == "on")
        await reply(interaction, straddle_text(options))

    @app_commands.command(
        name="join-blind", description="Flop games: newcomers wait for the big blind or post one (the dealer)"
    )
    @app_commands.describe(setting="wait (default): dealt in when the big blind comes round; post: posts a"
                                   " big blind to play at once")
    @app_commands.choices(setting=[app_commands.Choice(name=v, value=v) for v in JOIN_BLIND])
    async def join_blind(self, interaction: Interaction, setting: app_commands.Choice[str]) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_options(key, who, join_blind=setting.value)
        text = ("Players who sit down or come back wait for the big blind before a flop game deals them in."
                if setting.value == "wait" else
                "Players who sit down or come back post a big blind and are dealt in at once.")
        await reply(interaction, text)

    @app_commands.command(name="bomb-pot", description="Flop games: a bomb pot next hand or every Nth hand"
                                                       " (the dealer only)")
    @app_commands.describe(
        when="next: the next flop hand; every: every Nth hand; off: no bomb pots",
        every="With every: N, the hands whose number is a multiple of N",
        ante="Chips each player antes (default: five big blinds)",
    )
    @app_commands.choices(when=[app_commands.Choice(name=w, value=w) for w in ("next", "every", "off")])
    async def bomb_pot(
        self, interaction: Interaction, when: app_commands.Choice[str],
        every: app_commands.Range[int, 1, 1000] | None = None, ante: app_commands.Range[int, 1] | None = None,
    ) -> None:
        key = table_key(interaction)
        who = await actor(interaction, dealer=True)
        if when.value == "every" and every is None:
            await reply(interaction, "Say how often: /table bomb-pot when:every every:N (every Nth hand).")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        service = self.bot.service
        if ante is not None:
            await service.set_options(key, who, bomb_pot_ante=ante)
        if when.value == "next":
            await reply(interaction, await service.call_bomb_pot(key, who))
        elif when.value == "every":
            options = await service.set_options(key, who, bomb_pot_every=every)
            await reply(interaction, bomb_pot_text(options))
        else:
            await service.call_bomb_pot(key, who, on=False)
            options = await service.set_options(key, who, bomb_pot_every=None)
            await reply(interaction, bomb_pot_text(options))

    @app_commands.command(
        name="automuck", description="Muck a beaten hand at the showdown without being asked"
    )
    @app_commands.describe(
        setting="on: beaten hands are mucked for you (a hand that could win is always shown)"
    )
    @app_commands.choices(setting=[app_commands.Choice(name="on", value="on"),
                                   app_commands.Choice(name="off", value="off")])
    async def automuck(self, interaction: Interaction, setting: app_commands.Choice[str]) -> None:
        key = table_key(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.bot.service.set_automuck(key, await actor(interaction), setting.value == "on")
        await reply(interaction, text)

    @app_commands.command(name="dealer-role", description="Set the server's dealer role (Manage Server)")
    @app_commands.describe(role="Members with this role may deal and set rulings at any table (empty: clear)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def dealer_role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        key = table_key(interaction)
        await self.bot.store.update_guild_settings(key.guild, dealer_role_id=role.id if role else None)
        if role is None:
            await reply(interaction, "No dealer role now (a role named Dealer still counts).")
        else:
            await reply(interaction, f"Members with the {role.name} role are dealers at every table here.")


async def setup(bot: WildstudBot) -> None:
    """Extension entry point: the cog, and its controls added to the click router."""
    await bot.add_cog(Table(bot))
    bot.clicks.add(JoinButton, DealButton, GameSelect)
