"""A play-by-email Diplomacy judge."""
from .storage import lean_sqlite_utils

__version__ = "0.1.0"
lean_sqlite_utils.install()     # before any module imports sqlite_utils
