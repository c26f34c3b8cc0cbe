"""Train bots with PPO and self-play (arrives with issue 6; not implemented yet)."""

import sys


def main() -> int:
    print("train.py is not implemented yet: training arrives with issue 6.", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
