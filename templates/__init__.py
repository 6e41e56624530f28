"""The mail templates (Jinja), shipped inside the package as `judge.templates`."""
