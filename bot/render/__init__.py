"""Engine state as text, shared by Discord and the terminal so both say the same thing: cards,
the wild list with origins, the table, the hand log, private views, showdowns, stakes and rulings."""
