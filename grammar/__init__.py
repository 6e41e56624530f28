"""The order and command grammars (Lark), shipped inside the package as `judge.grammar`."""
