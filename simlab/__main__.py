import sys

from simlab.cli import main

sys.exit(main())
