"""Hand values: the wild-aware high evaluator and its tables (``evaluator``, ``evaluator_tables``),
showing hands for the order of play (``showing``), the valuation of more than seven cards and the
best showing hand (``valuation``), and the low rankings (issue 19): ``ace_to_five`` (razz, and the
eight-or-better qualifier of stud hi-lo), ``deuce_to_seven``, ``badugi``, and ``low`` (the low value
they share); ``board`` values a hand with the board of the flop games (Hold'em, Omaha, Omaha
hi-lo; issue 21). Each is pure: cards in, a value out, named as players say it.
"""
