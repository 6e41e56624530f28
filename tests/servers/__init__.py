"""Real servers for the mail tests, started on 127.0.0.1 and stopped by fixtures."""
