"""`python -m judge`: the `judge` command (judge.cli), e.g. for `python -X importtime -m judge --help`."""
import sys

from .cli import main

sys.exit(main())
