"""Hand histories in the PHH format (``uoftcprg/phh-std``), SPEC §9.

A history is a TOML file. Wildstud reads and writes the stud subset of PHH:

* ``variant``: ``"F7S"`` (fixed limit), ``"P7S"`` (pot limit) or ``"N7S"`` (no limit);
* ``antes`` (one per player, all equal), ``bring_in``, ``small_bet`` and ``big_bet`` (fixed
  limit) or ``min_bet`` (pot and no limit), ``starting_stacks``;
* ``actions``: ``d dh p1 7c2dQc`` (two down cards and the door card), ``d dh p1 8h`` (a later
  card), ``d db 7d`` (the shortage community card), ``p1 pb`` (bring-in), ``p1 cbr 20``
  (complete, bet or raise *to* 20), ``p1 cc`` (check or call), ``p1 f`` (fold),
  ``p1 sm Ah3cQc9s5sTs4d`` (show the cards as dealt, or the down cards alone; ``p1 sm -`` shows
  the cards already dealt) and ``p1 sm`` (muck). A ``# text`` after an action is commentary;
  an empty string is a no-op;
* optional ``players``, ``seats``, ``finishing_stacks``, ``winnings``;
* game fields prefixed with an underscore: ``_rulings`` (a table of ruling name to option),
  ``_wild_ranks`` (rank characters in the order they became wild), ``_wild_events``,
  ``_deck_commitment``.

Player ``p1`` is the first seat dealt (left of the dealer); inside the engine that is seat 0.
:func:`parse_phh` turns text into a :class:`HandHistory` (cards and ranks as values, chips as
``int``); :func:`export_phh` writes a :class:`~bot.engine.hand.hand.StudHand` -- finished or still
in progress -- back to PHH text. Malformed input raises :class:`PhhError` (a ``ValueError``)
naming the field or the action's position.

The parts: the parsed form (``HandHistory`` and friends) is in ``history``, the reader in
``parser`` and the writer in ``export``.

>>> from bot.engine.phh.parser import parse_phh
>>> h = parse_phh('''
... variant = "F7S"
... antes = [5, 5]
... bring_in = 10
... small_bet = 20
... big_bet = 40
... starting_stacks = [500, 500]
... actions = ["d dh p1 Ah3cQc", "d dh p2 Kh7c5h", "p1 pb  # queen brings in", "p2 f"]
... ''')
>>> h.variant, h.player_count, h.structure
('F7S', 2, 'fixed-limit')
>>> a = h.actions[0]
>>> a.kind, a.player, [c.code for c in a.cards], a.line
('dh', 0, ['Ah', '3c', 'Qc'], 8)
>>> h.actions[2].kind, h.actions[2].commentary
('pb', 'queen brings in')
"""
