"""Mail out: messages built and queued in the durable outbox, sent through the relay, the
courier that turns notices into mail, and the bounds on what the judge writes back."""
