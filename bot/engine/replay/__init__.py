"""Replaying a PHH history through the engine (``replayer``), its report (``report``), as JSON
(``as_json``) and as a story (``story``)."""
