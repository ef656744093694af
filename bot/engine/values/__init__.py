"""Hand values: the wild-aware high evaluator and its tables (``evaluator``, ``evaluator_tables``),
showing hands for the order of play (``showing``), the valuation of more than seven cards and the
best showing hand (``valuation``), and the low rankings (issue 19), each pure, cards in and a value
out, lower key better, named as players say it: ``ace_to_five`` (razz, and the eight-or-better
qualifier of stud hi-lo), ``deuce_to_seven`` and ``badugi`` (``low`` holds their value type)."""
