"""The one narrator (``narrator``): a visitor over the hand's events, spoken by live tables and by
``wildstud replay``."""
