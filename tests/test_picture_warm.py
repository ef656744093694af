"""``bot.render.pictures.warm`` draws at start every card face the pictures use, so a bot's first
hands do not each pay for the faces they meet first (issue 20)."""

from __future__ import annotations

from pathlib import Path

from bot.render import gallery, sprites
from bot.render.pictures import warm


def test_after_warm_no_picture_draws_a_card_face(tmp_path: Path) -> None:
    warm()
    before = sprites.card_sprite.cache_info().misses
    gallery.render(tmp_path)         # a table with wild minis, a board, two boards, a DM, a showdown
    assert sprites.card_sprite.cache_info().misses == before
