"""``python -m bot``: the same as the ``wildstud`` console script (default command: ``run``)."""

from bot.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
