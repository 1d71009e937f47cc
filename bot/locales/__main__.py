"""``python -m bot.locales [update|check|extract]``: see :mod:`bot.locales`."""

from __future__ import annotations

import sys

from bot.locales import POT, all_messages, problems, template, update, write


def main(argv: list[str]) -> int:
    """Run one command; returns the exit status."""
    command = argv[0] if argv else "check"
    if command == "extract":
        write(POT, template(all_messages()))
        print(f"wrote {POT}")
        return 0
    if command == "update":
        missing = update()
        for name, count in missing.items():
            print(f"{name}: {count} untranslated")
        return 0
    if command == "check":
        found = problems(all_messages())
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
