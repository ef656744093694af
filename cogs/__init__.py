"""Discord cogs: thin discord.py GroupCogs that parse interactions and call the table service."""
