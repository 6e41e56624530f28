"""Keeping a judge running: backups, restores and health checks (`judge backup|restore|doctor`)."""
