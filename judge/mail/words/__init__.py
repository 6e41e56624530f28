"""What the judge's mail says: templates rendered, notices and results laid out, the words for the
engine's codes, and what each reader may see (fog, anonymity)."""
