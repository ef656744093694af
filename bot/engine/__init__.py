"""The pure game engine: cards, evaluator, rulings, the stud hand, pots and hand histories.

Nothing in this package performs I/O or imports ``discord`` or ``asyncio``.
"""
