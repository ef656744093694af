"""Discord components and helpers shared by the presenter and the cogs: the persistent buttons
(``base``, ``lobby``, ``betting``, ``amount``), text helpers (``text``), interaction helpers
(``common``) and the error reply (``errors``)."""
