"""The mail edge: SMTP/LMTP and IMAP intake into a durable archive, loop and bounce rules, the outbox."""
