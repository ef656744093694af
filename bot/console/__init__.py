"""``wildstud play``: a table in the terminal, on the same table service the Discord bot uses."""
