"""The games as data: the catalogue (``catalogue``: one ``Game`` per game), their streets
(``streets``), rulings (``rulings``), wild models (``wilds``, ``follow``) and Baseball's extra
cards and payments (``baseball``)."""
