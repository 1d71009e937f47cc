"""``python -m bot`` runs the Discord bot; ``python -m bot demo`` plays an offline match."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.settings import SettingsError, load_settings

NO_TOKEN = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it "
    "(see README), or try `python -m bot demo`."
)


def build_parser() -> argparse.ArgumentParser:
    from bot.tables.computer import LEVELS
    from bot.tools.demo import LOCALES, variants

    parser = argparse.ArgumentParser(
        prog="python -m bot", description="A Discord bot that hosts dominoes games."
    )
    parser.add_argument("--env-file", default=".env", help="settings file to read (default: .env)")
    sub = parser.add_subparsers(
        dest="command", metavar="{run,demo,copy-db,web,achievements-backfill}"
    )
    sub.add_parser("run", help="run the Discord bot (the default)")
    sub.add_parser(
        "web",
        help="serve the web pages (leaderboards, match replays) of servers that turned them on",
        description="Serve the read-only web companion on WEB_HOST:WEB_PORT (see docs/web.md).",
    )
    demo = sub.add_parser(
        "demo", help="play a whole match of computer players offline, with pictures"
    )
    demo.add_argument("--variant", default="partners", choices=variants(), help="rule variant")
    demo.add_argument("--out", default="out/demo", help="folder for the pictures (out/demo)")
    demo.add_argument("--seed", type=int, default=None, help="seed of the shuffle (random)")
    demo.add_argument("--level", choices=LEVELS, default=None, help="computer players' level")
    demo.add_argument(
        "--keep-db", action="store_true", help="keep the demo's SQLite file in the out folder"
    )
    demo.add_argument(
        "--locale", choices=LOCALES, default=None, help="language of the lines and pictures"
    )
    from bot.tools.copydb import database_argument

    copy = sub.add_parser(
        "copy-db",
        help="copy every table, match and record to another database (SQLite <-> PostgreSQL)",
        description="Copy everything from one database to an empty one and check the copy "
        "(row counts, a replay of every match). Stop the bot first.",
    )
    copy.add_argument(
        "--from",
        dest="source",
        required=True,
        type=database_argument,
        help="the database to read: sqlite:///data/domino.sqlite3, a file path, "
        "or postgresql://user:password@host/db",
    )
    copy.add_argument(
        "--to",
        dest="target",
        required=True,
        type=database_argument,
        help="the empty database to fill (created with its tables if needed)",
    )
    sub.add_parser(
        "achievements-backfill",
        help="award the achievements of matches recorded before (safe to run again, any time)",
        description="Read the stored action logs of recorded matches and award what they "
        "earned. Idempotent: run it again, or after it was stopped, for the same result.",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run; returns the exit status."""
    args = build_parser().parse_args(argv)
    if args.command == "demo":
        from bot.tools.demo import demo_main

        return demo_main(args, sys.stdout)
    if args.command == "copy-db":
        from bot.tools.copydb import copy_db_main

        return copy_db_main(args.source, args.target)

    try:
        settings = load_settings(args.env_file)
    except SettingsError as exc:
        print(f"Bad setting: {exc}", file=sys.stderr)
        return 2
    if args.command == "achievements-backfill":
        from bot.achievements.backfill import backfill_main

        return backfill_main(settings.database_url)
    if args.command == "web":
        from bot.web.app import run_web

        return run_web(settings)
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2

    from bot.client import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main())
