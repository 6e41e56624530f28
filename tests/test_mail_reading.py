"""Orders read with the board in hand, by mail: how each line was read is said in the confirmation,
a line the board leaves two meanings for is answered with both, and in an adjustment phase a unit
written alone ("A Smy", as the rulebooks write builds) is a build for a power that builds and a
removal for one that removes."""


def words(body: str) -> str:
    return " ".join(body.split())  # the reply wraps long notes within 77 columns


def test_names_are_read_as_the_board_allows_and_the_reply_says_how(playing):
    j = playing
    body = words(j.reply_to("italy@dip.test", "signon Ialpha italy-pw\nF Nap-Tyr\nA Ven-Tyr").body)
    assert "read 'F Nap-Tyr' as Fleet Naples -> Tyrrhenian Sea: a fleet cannot enter Tyrolia" in body
    assert "Army Venice -> Tyrolia" in body
    body = words(j.reply_to("england@dip.test", "signon Ealpha england-pw\nA Liv-Yor\nE Edi-Nth\nF Stands").body)
    assert ("read 'A Liv-Yor' as Army Liverpool -> Yorkshire: 'Liv' could be Livonia or Liverpool; only Liverpool "
            "fits the board") in body
    assert ("read 'E Edi-Nth' as Fleet Edinburgh -> North Sea: 'E' is no unit type, and the unit in Edinburgh is a "
            "fleet") in body
    assert "ERROR on line 4: F Stands" in body and "Fleet Edinburgh holds or Fleet London holds" in body
    orders = {o["written"] for o in j.service.confirmation("alpha", "ENGLAND").orders}
    assert orders == {"A Liv-Yor", "E Edi-Nth"}


def test_a_unit_written_alone_is_a_build_or_a_removal_as_the_power_stands(playing):
    j = playing
    j.reply_to("russia@dip.test", "signon Ralpha russia-pw\nA War-Ukr")
    j.reply_to("germany@dip.test", "signon Galpha germany-pw\nA Ber-Sil")
    j.service.process("alpha")
    j.reply_to("russia@dip.test", "signon Ralpha russia-pw\nA Ukr H")
    j.reply_to("germany@dip.test", "signon Galpha germany-pw\nA Sil-War")
    j.service.process("alpha")  # Germany has taken Warsaw: Germany builds one, Russia removes one
    body = words(j.reply_to("russia@dip.test", "signon Ralpha russia-pw\nA Ukr").body)
    assert "A Ukr read as a removal" in body and "ERROR" not in body
    body = words(j.reply_to("germany@dip.test", "signon Galpha germany-pw\nA Ber").body)
    assert "A Ber read as a build" in body and "ERROR" not in body
    body = words(j.reply_to("france@dip.test", "signon Falpha france-pw\nA Par").body)
    assert "ERROR on line 2: A Par" in body and "nothing to build or remove" in body  # France has neither
    j.service.process("alpha")
    units = j.service.status("alpha").position["units"]
    assert "A UKR" not in units["RUSSIA"] and "A BER" in units["GERMANY"]
