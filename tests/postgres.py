"""A real PostgreSQL server for the tests (a pytest plugin, loaded by ``tests/conftest.py``).

``postgres_server`` (session): ``initdb`` + ``pg_ctl start`` on a temporary data directory, listening
only on a unix socket in that directory, stopped (``pg_ctl stop -m immediate``) at the end of the
session. As root (CI, this machine) the server runs as the ``postgres`` user, since ``initdb``
refuses root. The binaries are found on ``PATH``, else in ``/usr/lib/postgresql/*/bin`` (newest).
Durability settings are off (``fsync=off``): the tests kill clients, never the server.

``pg_url`` (function): a new, empty database on that server, as a ``postgresql://`` URL.

Without PostgreSQL binaries the PostgreSQL-parametrized tests are skipped, with a reason, unless
``WILDSTUD_REQUIRE_POSTGRES=1`` (``.ci/run`` sets it): then they fail, loudly.
``WILDSTUD_TEST_POSTGRES_URL`` points the tests at an existing server instead (a URL of a user
allowed to ``CREATE DATABASE``; its path names the maintenance database, e.g. ``/postgres``).

:class:`RawDb` reads and writes a test database without the store (sqlite3 or psycopg), for
independent checks and for tampering.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

REQUIRE_ENV = "WILDSTUD_REQUIRE_POSTGRES"
URL_ENV = "WILDSTUD_TEST_POSTGRES_URL"
_names = itertools.count(1)


def find_bindir() -> Path | None:
    """The folder holding ``pg_ctl`` and ``initdb``, or None."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4] or 0), reverse=True
    )
    return Path(found[0]).parent if found else None


class PostgresServer:
    """A throwaway cluster: ``admin_url`` reaches its maintenance database."""

    def __init__(self, bindir: Path | None, admin_url: str, folder: Path | None) -> None:
        self.bindir = bindir
        self.admin_url = admin_url
        self.folder = folder

    @classmethod
    def start(cls, bindir: Path) -> PostgresServer:
        folder = Path(tempfile.mkdtemp(prefix="wildstud-pg-"))
        data = folder / "data"
        as_root = os.geteuid() == 0
        prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
        if as_root:
            shutil.chown(folder, "postgres")
        subprocess.run(
            [*prefix, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "wildstud", "-E", "UTF8",
             "--no-sync"],
            check=True, capture_output=True,
        )
        options = (
            f"-c listen_addresses='' -c unix_socket_directories={folder} -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"),
             "-w", "-t", "60", "start"],
            check=True, capture_output=True,
        )
        return cls(bindir, f"postgresql://wildstud@/postgres?host={quote(str(folder))}", folder)

    def stop(self) -> None:
        if self.bindir is None or self.folder is None:
            return
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(
            [*prefix, str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
             "stop"],
            check=False, capture_output=True,
        )
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        parts = urlsplit(self.admin_url)
        return urlunsplit(parts._replace(path=f"/{database}"))

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = f"wildstud_test_{os.getpid()}_{next(_names)}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    external = os.environ.get(URL_ENV)
    if external:
        yield PostgresServer(None, external, None)
        return
    required = os.environ.get(REQUIRE_ENV) == "1"
    bindir = find_bindir()
    if bindir is None:
        message = "no PostgreSQL server binaries (pg_ctl, initdb) on PATH or in /usr/lib/postgresql"
        if required:
            pytest.fail(f"{message}, and {REQUIRE_ENV}=1", pytrace=False)
        pytest.skip(f"{message}; set {REQUIRE_ENV}=1 to make this an error")
    try:
        server = PostgresServer.start(bindir)
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        message = f"could not start PostgreSQL from {bindir}: {error} {detail.decode()[-500:]}"
        pytest.fail(message, pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> str:
    return postgres_server.create_database()


class RawDb:
    """A plain connection to a test database (a SQLite path or a ``postgresql://`` URL), outside the
    store: ``execute`` takes ``?`` placeholders on both; ``IntegrityError`` is the driver's."""

    def __init__(self, target: str | Path) -> None:
        self.postgres = str(target).startswith("postgresql://")
        self._conn: Any
        if self.postgres:
            import psycopg

            self.IntegrityError: type[Exception] = psycopg.IntegrityError
            self._conn = psycopg.connect(str(target))
        else:
            self.IntegrityError = sqlite3.IntegrityError
            self._conn = sqlite3.connect(target)

    def execute(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        if self.postgres:
            sql = sql.replace("%", "%%").replace("?", "%s")
            cursor = self._conn.execute(sql, tuple(params))
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []
        return self._conn.execute(sql, tuple(params)).fetchall()

    def tables(self) -> list[str]:
        if self.postgres:
            rows = self.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                " ORDER BY table_name"
            )
        else:
            rows = self.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return [row[0] for row in rows]

    def commit(self) -> None:
        self._conn.commit()

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> RawDb:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self._conn.commit()
        else:
            self._conn.rollback()
        self._conn.close()
