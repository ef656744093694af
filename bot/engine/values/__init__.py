"""Hand values other than the wild-aware high hand (issue 19): the low rankings.

``ace_to_five``: ace-to-five low (razz) and the eight-or-better qualifier (the low half of stud
hi-lo); ``deuce_to_seven``: deuce-to-seven low; ``badugi``: badugi. Each module is pure: cards in,
a value out, lower key better, named as players say it.
"""
