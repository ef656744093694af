"""Sit-and-go tournaments as pure code (issue 23): the structure (levels, presets, custom
schedules), payouts and the independent chip model, and the tournament's state machine. Imports
only the engine; the store keeps a tournament as data and the table service plays it."""
