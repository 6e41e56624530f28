"""Who wrote a mail and whether to answer it: addresses, robots and bounces, replays, passwords
and their guard, secret reply tokens, and the dispatcher's tables that remember them."""
