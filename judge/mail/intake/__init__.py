"""Mail in: the SMTP and LMTP server, the IMAP poller, intake's spool, and the archive every
mail is stored in before it is acknowledged."""
