"""The shipped deploy/ files agree with each other and with the judge: the unit writes where the
example config keeps its data, Postfix hands mail to the port the judge listens on, and the judge
relays to the Postfix that the snippet lets it relay through."""
from __future__ import annotations

import configparser
import ipaddress
import re
from pathlib import Path

from judge.config import load_config

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


def postfix_main() -> dict[str, str]:
    settings = {}
    for line in (DEPLOY / "postfix" / "main.cf").read_text().splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def test_the_unit_writes_where_the_example_keeps_its_data():
    unit = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    unit.read_string((DEPLOY / "systemd" / "judge.service").read_text())
    config = load_config(DEPLOY / "examples" / "judge.toml", env={})
    assert str(config.data_dir) == unit["Service"]["ReadWritePaths"]
    assert "/etc/judge/judge.toml" in unit["Service"]["ExecStart"]


def test_postfix_hands_the_judges_address_to_the_port_the_judge_listens_on():
    config = load_config(DEPLOY / "examples" / "judge.toml", env={})
    assert config.smtp.lmtp and ipaddress.ip_address(config.smtp.host).is_loopback
    transport = (DEPLOY / "postfix" / "transport").read_text()
    address, nexthop = re.search(r"^(\S+@\S+)\s+(\S+)", transport, re.M).groups()
    assert address == config.address
    assert nexthop == f"judge:inet:{config.smtp.host}:{config.smtp.port}"
    assert re.search(r"^judge\s+unix\s.*\slmtp$", (DEPLOY / "postfix" / "master.cf").read_text(), re.M)
    recipients = (DEPLOY / "postfix" / "recipients").read_text()
    assert re.search(rf"^{re.escape(config.address)}\s+OK$", recipients, re.M)
    main = postfix_main()
    assert main["virtual_mailbox_domains"] == config.domain
    assert main["recipient_delimiter"] == "+"


def test_the_judge_relays_through_a_postfix_that_lets_it():
    config = load_config(DEPLOY / "examples" / "judge.toml", env={})
    main = postfix_main()
    networks = [ipaddress.ip_network(n.strip("[]").replace("]/", "/")) for n in main["mynetworks"].split()]
    relay = ipaddress.ip_address(config.relay.host)
    assert any(relay in n for n in networks) and config.relay.port == 25
    assert main["smtpd_relay_restrictions"].startswith("permit_mynetworks")


def test_the_imap_example_reads_a_mailbox_and_sends_through_the_provider():
    config = load_config(DEPLOY / "examples" / "imap.toml", env={})
    assert config.imap.enabled and config.imap.ssl and config.relay.starttls and config.relay.port == 587
    assert ipaddress.ip_address(config.smtp.host).is_loopback
