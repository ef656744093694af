"""Betting and pots: the table's stakes (``stakes``), one street's betting (``round``) and the
pots and their splitting (``pots``)."""
