"""One hand: its state record (``state``), the one street loop (``streets``) and the rules as
functions of the state: dealing (``dealing``), who opens (``opening``), decisions (``decisions``),
reading commands (``planning``), the showdown (``showdown``); the events it reports (``events``);
``StudHand`` (``hand``), its public face."""
