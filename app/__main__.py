"""`python -m app` runs the `motable` command."""

import sys

from app.cli import main

sys.exit(main())
