"""SQLite storage through sqlite-utils: opening files and versioned migrations."""
