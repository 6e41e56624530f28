"""judge/mail/screening/secrets_mask.py: passwords are masked where commands put them, and wherever they recur."""
from judge.mail.screening.secrets_mask import MASK, mask_line, mask_words


def test_each_command_that_takes_a_password_has_it_masked():
    cases = {
        "SIGNON Falpha hunter2": f"SIGNON Falpha {MASK}", "sign on Falpha hunter2": f"sign on Falpha {MASK}",
        "signon ?alpha hunter2": f"signon ?alpha {MASK}", "login Falpha hunter2 extra": f"login Falpha {MASK} {MASK}",
        "JOIN alpha hunter2 France": f"JOIN alpha {MASK} France", "create beta hunter2 standard":
        f"create beta {MASK} standard", "observe alpha hunter2": f"observe alpha {MASK}",
        "REGISTER ann hunter2 Europe/Paris": f"REGISTER ann {MASK} Europe/Paris",
        "become master hunter2": f"become master {MASK}", "SET PASSWORD hunter3": f"SET PASSWORD {MASK}",
        "set pw hunter3": f"set pw {MASK}", "A Par - Bur": "A Par - Bur", "signon": "signon",
    }
    for line, masked in cases.items():
        assert mask_line(line) == masked, line


def test_known_passwords_are_masked_as_whole_words_only():
    text = "hunter2\nA Par hunter2 x\nhunter22 stays"
    assert mask_words(text, {"hunter2", ""}) == f"{MASK}\nA Par {MASK} x\nhunter22 stays"
