"""The adjudicator: pure functions of (variant, position, orders, rules). No I/O, no clock."""
