"""Wildstud on Discord: the client (``bot.discord.client.WildstudBot``), the presenter that turns
the table service's updates into channel messages, edits and DMs (``bot.discord.presenter``), and
``bot.discord.ui``: the persistent buttons, the amount modal, text helpers and the error reply.

The slash commands live in the top-level ``cogs`` package, loaded by name as extensions; nothing
imports ``cogs`` (the cogs import this package, never the other way round).
"""
