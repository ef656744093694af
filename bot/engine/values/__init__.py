"""Hand values: the wild-aware high evaluator and its tables (``evaluator``, ``evaluator_tables``),
showing hands for the order of play (``showing``), and the valuation of more than seven cards and
the best showing hand (``valuation``)."""
