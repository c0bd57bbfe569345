"""``python -m simlab``: the same command line as ``simlab``."""

import sys

from simlab.cli import main

sys.exit(main())
