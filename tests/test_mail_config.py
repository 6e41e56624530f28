"""judge/config.py: embedded defaults < TOML < JUDGE_* environment < flags."""
from pathlib import Path

import pytest

from judge.config import Config, ConfigError, load_config, parse_host_port
from judge.serve_cli import overrides_from
from judge.cli import build_parser


def test_defaults_need_no_configuration():
    config = load_config(env={})
    assert config == Config()
    assert (config.smtp.host, config.smtp.port) == ("127.0.0.1", 2525)
    assert config.data_dir == Path("var") and config.db_path == Path("var/judge.sqlite")
    assert config.outbox_dir == Path("var/outbox")
    assert not config.relay.enabled and not config.imap.enabled
    assert config.address == "judge@localhost" and config.domain == "localhost"
    assert config.smtp.lmtp is False


def test_toml_then_environment_then_flags(tmp_path):
    toml = tmp_path / "judge.toml"
    toml.write_text('data_dir = "/srv/judge"\naddress = "judge@example.org"\n'
                    '[smtp]\nport = 2600\nsize_limit = 5000\nlmtp = true\n'
                    '[relay]\nhost = "smtp.example.org"\nport = 587\nstarttls = true\n'
                    '[imap]\nhost = "imap.example.org"\nuser = "judge"\n')
    config = load_config(toml, env={})
    assert config.data_dir == Path("/srv/judge") and config.smtp.port == 2600 and config.smtp.lmtp
    assert config.relay.enabled and config.relay.starttls and config.imap.enabled
    assert config.smtp.size_limit == 5000

    env = {"JUDGE_SMTP_PORT": "2700", "JUDGE_SMTP_LMTP": "no", "JUDGE_IMAP_PASSWORD": "pw",
           "JUDGE_CONFIG": str(toml), "UNRELATED": "x"}
    config = load_config(env=env)          # the file named by $JUDGE_CONFIG
    assert config.smtp.port == 2700 and not config.smtp.lmtp and config.imap.password == "pw"
    assert config.address == "judge@example.org"

    args = build_parser().parse_args(["serve", "--smtp-port", "2800", "--relay", "relay.local:2525",
                                      "--data", str(tmp_path)])
    config = load_config(env=env, overrides=overrides_from(args))
    assert config.smtp.port == 2800 and config.data_dir == tmp_path
    assert (config.relay.host, config.relay.port) == ("relay.local", 2525)
    assert not config.smtp.lmtp           # a flag not given does not override


def test_mistakes_are_reported(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[smtp]\nprot = 25\n")
    with pytest.raises(ConfigError, match="smtp.prot"):
        load_config(bad, env={})
    bad.write_text("colour = 'red'\n")
    with pytest.raises(ConfigError, match="colour"):
        load_config(bad, env={})
    with pytest.raises(ConfigError, match="smtp.port"):
        load_config(env={"JUDGE_SMTP_PORT": "many"})
    with pytest.raises(ConfigError, match="smtp.lmtp"):
        load_config(env={"JUDGE_SMTP_LMTP": "perhaps"})
    with pytest.raises(ConfigError, match="address"):
        load_config(env={"JUDGE_ADDRESS": "judge"})
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml", env={})
    bad.write_text("[smtp\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(bad, env={})


def test_host_and_port():
    assert parse_host_port("mail.example.org", 25) == ("mail.example.org", 25)
    assert parse_host_port("mail.example.org:587", 25) == ("mail.example.org", 587)
    assert parse_host_port("[::1]:2525", 25) == ("::1", 2525)
    with pytest.raises(ConfigError):
        parse_host_port("host:port", 25)
