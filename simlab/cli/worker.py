"""``python -m simlab.cli.worker COMMAND``: the real worker processes' command line.

Not a ``simlab`` sub-command: the demo, the race and the stress test start these processes
themselves. The work is :mod:`simlab.ledger.processes`; this module only parses.
"""

from __future__ import annotations

import sys

from simlab.cli.args import OneLineErrorParser
from simlab.ledger import processes

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = OneLineErrorParser(prog="python -m simlab.cli.worker")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("resume")
    p.add_argument("path")
    p.add_argument("task")
    p.add_argument("--worker")
    p.set_defaults(func=processes.resume)
    p = sub.add_parser("race")
    p.add_argument("path")
    p.add_argument("task")
    p.add_argument("--claims", type=int, default=50)
    p.add_argument("--gap", type=float, default=0.002)
    p.add_argument("--chapter", action="store_true")
    p.add_argument("--barrier", help="a folder where racers wait for each other")
    p.add_argument("--parties", type=int, default=1, help="how many racers to wait for")
    p.set_defaults(func=processes.race)
    p = sub.add_parser("fleet")
    p.add_argument("path")
    p.add_argument("--name", required=True)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--ttl", type=float, default=0.5)
    p.add_argument("--work", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", required=True)
    p.set_defaults(func=processes.fleet)
    args = vars(parser.parse_args(argv))
    del args["command"]
    return args.pop("func")(**args)


if __name__ == "__main__":
    sys.exit(main())
