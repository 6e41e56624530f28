"""Games over weeks: storage, lifecycle, deadlines, civil disorder and the end of a game.

The edges (mail dispatch, the scheduler, the CLI) call `service.GameService` only.

    store.py        schema and migrations: one SQLite file per game, the "games" part of judge.sqlite
    gamefile.py     reading and writing one game's rows, and its notices (stable ids)
    model.py        settings, game and power statuses, GameError
    answers.py      what GameService answers (frozen values), NoticeKind, NoSuchGame
    clock.py        clocks, deadlines, reminders, absences, times shown in people's zones
    forming.py      sign-ups and the start; assignment.py gives out the seats
    submissions.py  orders over time, as written and as read; ordercodec.py is their JSON
    processing.py   reminders, late notices and playing a phase, in one transaction
    players.py      who may act for a power, replacements, resignations, absences
    master.py       pause, resume, moved deadlines, rollback
    votes.py        draws and concessions; ending.py decides how a game ends
    press.py        white, grey or no press
    small.py        the rulebooks' games for fewer than seven; worldwar.py the two-player game
    exchange.py     exchanges of centres between two powers (variants with the "centre_exchange" hook)
    accounts.py     accounts, addresses, scrypt password hashes
    cli.py          judge create|list|status|process|history|rollback|account
"""
