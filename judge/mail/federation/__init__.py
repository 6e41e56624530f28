"""Several judges behind one mail server: shards forwarding mail between hosts, and accounts
that follow a player across them."""
