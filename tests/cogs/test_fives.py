"""All Fives and the Latin bonuses through Discord: whole matches played by clicking, the
spinner's Up and Down buttons, the points scored at the ends and the bonuses in the texts."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from bot.i18n import picture_labels
from bot.store import ActionRow, SeatRow, TableRow
from bot.tables.history import History
from bot.tables.service import TableInfo
from cogs.domino import texts
from cogs.markup import error_text
from domino import IllegalAction, Match, Play, Tile, encode_action, preset
from domino.spinner import arms_open
from render.table import LABELS, news
from tests.cogs.helpers import (
    TestBot,
    assert_no_hidden_tiles,
    button,
    enabled,
    factory,
    human_to_move,
    match_states,
    new_table,
    open_hand,
    parse,
    play_until_over,
    settle,
    start_with_computers,
)
from tests.cogs.test_match import first_button_policy
from tests.domino.test_fives import PILE as FIVES_PILE
from tests.domino.test_fives import S0, S1
from tests.fakediscord import FakeDiscord, InteractionResult, running_bot

ARM_ENDS = ("up", "down")


def _play(cid: str) -> tuple[str, str] | None:
    """(tile, end) of a play button's custom id, None for other buttons."""
    parsed = parse(cid)
    if parsed is None or parsed[0] != "play":
        return None
    return parsed[2][0], parsed[2][1]


async def click_turn(
    fake: FakeDiscord, bot: TestBot, tid: int, user: Any, hands: dict[int, InteractionResult]
) -> str | None:
    """``user`` plays one turn by clicking his hand message, laying a tile on the spinner's
    up or down end whenever a tile offers one. Returns the end chosen on an end button."""
    await settle(bot)
    if user.id not in hands:
        hands[user.id] = await open_hand(fake, bot, user, tid)
    hand = hands[user.id].message
    assert hand is not None and hand.ephemeral
    buttons = enabled(hand)
    asks = [c for c in buttons if (p := _play(c)) and p[1] == "ask"]
    choice = asks[-1] if asks else next(
        c for c in buttons if parse(c) and parse(c)[0] in ("play", "draw", "pass")  # type: ignore[index]
    )
    click = await fake.click(user, hand, choice)
    assert click.type == 6, click
    chosen = None
    if asks:
        await click.wait_for_edits(1)
        ends = {p[1]: c for c in enabled(hand) if (p := _play(c))}
        labels = {b["custom_id"]: b["label"] for b in hand.buttons()}
        assert list(labels.values())[-1] == "Back" and len(ends) >= 2, labels
        named = [labels[c] for c in ends.values()]
        assert all(label.startswith("on the ") for label in named), named
        for end, cid in ends.items():  # two ends showing one number are told apart by name
            number = labels[cid].split()[2]
            if sum(x.split()[2] == number for x in named) > 1:
                assert labels[cid] == f"on the {number} ({end})", labels
        chosen = next(e for e in (*ARM_ENDS, "left", "right") if e in ends)
        assert hand.text().endswith("?"), hand.text()  # "Where do you lay 3-5?"
        click = await fake.click(user, hand, ends[chosen])
    await click.wait_for_edits(1)
    assert not click.followups, [m.content for m in click.followups]
    return chosen


async def play_fives(
    fake: FakeDiscord, bot: TestBot, tid: int, users: list[Any], max_turns: int = 600
) -> list[str | None]:
    """The people play the whole match by clicking; returns the ends chosen on end buttons."""
    by_id = {u.id: u for u in users}
    hands: dict[int, InteractionResult] = {}
    chosen: list[str | None] = []
    for _ in range(max_turns):
        who = await fake.wait_for(
            lambda: human_to_move(bot, tid), what="a human's turn or the end"
        )
        if who == "over":
            return chosen
        chosen.append(await click_turn(fake, bot, tid, by_id[int(who)], hands))
    raise AssertionError("the match did not end")


async def check_finished_fives(fake: FakeDiscord, bot: TestBot, tid: int, target: int) -> None:
    """The match is over, the spinner's arms took tiles, every score is a multiple of 5, the
    texts name the points scored at the ends, and no public message shows a hidden tile."""
    await settle(bot)
    info = await bot.svc.get(tid)
    assert info.status == "finished"
    states, _ = await match_states(bot, tid)
    final = states[-1]
    assert final.outcome is not None and max(final.scores) >= target
    assert all(score % 5 == 0 for score in final.scores)
    arm_plays = sum(
        1 for s in states for e in s.events[-1:] if e.kind == "play" and e.end in ARM_ENDS
    )
    assert arm_plays >= 2, "tiles went on the spinner's up and down ends"
    scored = [e for s in states for e in s.events[-1:] if e.points]
    assert scored, "some play scored at the ends"
    public = " ".join(v.text() for m in fake.public_messages() for v in (*m.history, m))
    assert "The ends add up to" in public  # the move log
    assert "Scored at the ends:" in public  # a hand result lists them
    assert await assert_no_hidden_tiles(fake, bot, tid) > 10
    assert fake.error_responses == []


async def test_all_fives_two_people_every_move_clicked(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: object
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", seed=3)) as bot:
        result, tid = await new_table(fake, bot, alice, variant="all-fives", target=100)
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await fake.click(alice, lobby, button(lobby, "start"))
        chosen = await play_fives(fake, bot, tid, [alice, bob])
        assert {"up", "down"} <= set(chosen), chosen  # both arms by their buttons
        await check_finished_fives(fake, bot, tid, 100)


async def test_all_fives_four_players_in_pairs_with_computers(
    fake_discord: FakeDiscord, tmp_path: Path, pictures_on: object
) -> None:
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    bob = fake.add_user(1002, "bob", "Bob")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", seed=5)) as bot:
        result, tid = await new_table(
            fake, bot, alice, variant="all-fives", players=4, target=100
        )
        lobby = result.message
        assert lobby is not None
        await fake.click(bob, lobby, button(lobby, "join"))
        await fake.wait_for(lambda: "<@1002>" in lobby.text())
        await start_with_computers(fake, bot, alice, lobby)
        info = await bot.svc.get(tid)
        assert info.ruleset.seats == 4 and info.ruleset.teams
        chosen = await play_fives(fake, bot, tid, [alice, bob])
        assert set(chosen) & {"up", "down"}, chosen
        await check_finished_fives(fake, bot, tid, 100)


def seed_with_a_capicua() -> int:
    """The first shuffle whose first hand of partners with bonuses, every seat pressing the
    first button of its hand (as ``play_until_over`` does), ends with a capicúa."""
    rules = preset("partners", bonuses=True)
    for seed in range(1, 500):
        match = Match.new(rules, seed)
        while match.hand_number == 1 and match.turn is not None:
            match = match.apply(first_button_policy(match))
        if any(b.name == "capicua" for b in match.hand_results[0].bonuses):
            return seed
    raise AssertionError("no shuffle ends its first hand with a capicúa")


async def test_a_partners_hand_result_names_its_bonus(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Seed 000's comments: "capicúa ... 25 points"; the hand's result names the bonus, who
    earned it and the points, in every language."""
    fake = fake_discord
    users = [fake.add_user(1001 + k, f"p{k}", f"P{k}") for k in range(4)]
    seed = seed_with_a_capicua()
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3", seed=seed)) as bot:
        result, tid = await new_table(fake, bot, users[0], variant="partners", bonuses=True)
        lobby = result.message
        assert lobby is not None
        for user in users[1:]:
            await fake.click(user, lobby, button(lobby, "join"))
            await fake.wait_for(lambda u=user: f"<@{u.id}>" in lobby.text())
        await fake.click(users[0], lobby, button(lobby, "start"))

        def hand_over(_turns: int) -> bool:
            info = next((t for t in bot.svc.open_tables() if t.id == tid), None)
            view = info.public_view() if info is not None else None
            return view is None or bool(view.hand_results)

        await play_until_over(fake, bot, tid, users, stop=hand_over)
        await settle(bot)
        info = await bot.svc.get(tid)
        view = info.public_view()
        assert view is not None
        (hand,) = view.hand_results
        (bonus,) = [b for b in hand.bonuses if b.name == "capicua"]
        assert bonus.points == 25 and hand.points[bonus.side] >= 25
        name = texts.seat_name(info, bonus.seat)
        side = texts.side_label(None, info, bonus.side)
        said = f"Bonus Capicúa ({name}): +25 for {side}"
        posted = [m.text() for m in fake.public_messages()]
        assert any(said in text for text in posted), said
        _, es = texts.hand_result_text("es-ES", info, hand)
        _, pt = texts.hand_result_text("pt-BR", info, hand)
        assert f"Premio Capicúa ({name}): +25 para " in es
        assert f"Prêmio Capicua (lá e lô) ({name}): +25 para " in pt
        assert fake.error_responses == []


# --------------------------------------------------------------------- texts, each alone


def _info(variant: str, names: list[str], **options: Any) -> TableInfo:
    """A running table's snapshot with people seated under ``names``."""
    rules = preset(variant, **options)
    row = TableRow(1, 1, 1, 1, 1, variant, options, "running", 60, None, None, None, 0.0, 0.0)
    seats = tuple(SeatRow(1, k, 100 + k, name, "human", None) for k, name in enumerate(names))
    return TableInfo(row, rules, seats, 0, None)


def test_a_play_that_scores_at_the_ends_says_so() -> None:
    """The usual rule of All Fives: ends adding up to a multiple of 5 score at once; the move
    log says so, the hand's last play too."""
    info = _info("all-fives", ["Ann", "Bob"])
    history = History(info.ruleset, 1, {"hands": [S0, S1], "pile": FIVES_PILE})
    rows = [ActionRow(1, k, k % 2, encode_action(Play(Tile.parse(t), e)), 0.0, "player")
            for k, (t, e) in enumerate([("5-5", None), ("0-5", "right"), ("4-5", "left")])]
    history.extend(rows)
    opening, right, left = history.entries[-3:]
    assert (opening.points, right.points, left.points) == (10, 10, 0)  # 5+5; 5+5+0; 4+5+0
    assert texts.entry_text(None, info, opening) == (
        "Ann opened with 5-5. The ends add up to 10: +10."
    )
    assert texts.entry_text("es-ES", info, right).endswith("Las puntas suman 10: +10.")
    assert texts.entry_text("pt-BR", info, right).endswith("As pontas somam 10: +10.")
    assert texts.entry_text(None, info, left) == "Ann played 4-5 on the 5."


def test_the_penalty_games_stuck_end_is_no_block() -> None:
    """Seed 002: "As soon as there are 2 tiles left in the boneyard and the player on move is
    not able to play a valid move, the round ends as well" (not a blocked game)."""
    rules = preset("penalty")
    for seed in range(300):
        rng = random.Random(seed)
        match = Match.new(rules, seed)
        while match.hand_number == 1 and match.turn is not None:
            match = match.apply(rng.choice(match.legal_actions()))
        (result,) = match.hand_results[:1]
        if result.ending == "stuck":
            break
    else:
        raise AssertionError("no random hand of penalty ended stuck")
    info = _info("penalty", ["Ann", "Bob"])
    titles = {loc: texts.hand_result_title(loc, info, result) for loc in (None, "es-ES", "pt-BR")}
    assert titles[None] == (
        "Hand 1 ends: 2 tiles left in the pile and no play for the player to move."
    )
    assert "quedan 2 fichas en el pozo" in titles["es-ES"]
    assert "restam 2 pedras no monte" in titles["pt-BR"]
    assert not any("tranca" in t or "blocked" in t for t in titles.values())
    blocked = dataclasses.replace(result, ending="block")
    assert texts.hand_result_title(None, info, blocked) == "Hand 1: blocked!"
    banner = news(match.public_view(), ["Ann", "Bob"], None, result)  # the picture's banner
    assert banner == ["No play with 2 left in the pile: penalty points as they stand"]
    spanish = news(match.public_view(), ["Ann", "Bob"], picture_labels("es-ES", LABELS), result)
    assert spanish == ["Sin jugada con 2 en el pozo: penalización por lo que queda en la mano"]


def _spinner_errors() -> dict[str, IllegalAction]:
    """One engine error of each kind about the spinner's ends, from random All Fives hands."""
    found: dict[str, IllegalAction] = {}
    for seed in range(200):
        rng = random.Random(seed)
        match = Match.new(preset("all-fives"), seed)
        while match.turn is not None and match.hand_number == 1 and len(found) < 4:
            plays = [a for a in match.legal_actions() if isinstance(a, Play)]
            closed = not arms_open(match.line, match.spinner)
            for action in plays:
                for end in (None, "up", "down"):
                    attempt = Play(action.tile, end)  # type: ignore[arg-type]
                    try:
                        match.apply(attempt)
                    except IllegalAction as error:
                        key = error.code
                        if key == "no_match_end":
                            key += ":" + str(error.params["end"])
                        if key == "choose_end" and "up" not in str(error.params.get("ends")):
                            continue
                        if key == "arm_closed" and not closed:
                            continue
                        found.setdefault(key, error)
            match = match.apply(rng.choice(match.legal_actions()))
        if len(found) == 4:
            return found
    raise AssertionError(f"only {sorted(found)} came up")


def test_the_spinners_ends_in_error_messages() -> None:
    found = _spinner_errors()
    assert set(found) == {"choose_end", "arm_closed", "no_match_end:up", "no_match_end:down"}
    choose = found["choose_end"]
    tile = choose.params["tile"]
    english = error_text(None, choose)
    assert english.startswith(f"{tile} fits several ends: choose one of ") and "up" in english
    assert "arriba" in error_text("es-ES", choose) and "cima" in error_text("pt-BR", choose)
    assert error_text(None, found["arm_closed"]) == (
        "The spinner's up and down ends open once it has a tile on its left and on its right."
    )
    up = found["no_match_end:up"]
    assert error_text(None, up) == (
        f"{up.params['tile']} does not match the up end ({up.params['number']})."
    )
    assert "punta de abajo" in error_text("es-ES", found["no_match_end:down"])
    assert "ponta de baixo" in error_text("pt-BR", found["no_match_end:down"])


async def test_partners_targets_500_and_1000_need_the_bonuses(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Partners offers 500 and 1000 only with the bonuses on: a clear message, no table."""
    fake = fake_discord
    alice = fake.add_user(1001, "alice", "Alice")
    async with running_bot(fake, factory(fake, tmp_path / "db.sqlite3")) as bot:
        options = {"variant": "partners", "target": 500}
        refused = await fake.slash(alice, fake.channel_id, "domino new", options)
        assert refused.ephemeral
        assert refused.text() == "The targets 500 and 1000 need the option `bonuses` turned on."
        spanish = await fake.slash(alice, fake.channel_id, "domino new", options, locale="es-ES")
        assert "necesitan la opción" in spanish.text()
        assert bot.svc.open_tables() == []
        _, tid = await new_table(fake, bot, alice, variant="partners", target=500, bonuses=True)
        assert (await bot.svc.get(tid)).ruleset.target == 500


def test_the_pictures_alt_text_names_the_spinners_ends() -> None:
    from cogs.domino.alt_text import hand_alt_text, table_alt_text
    from tests.render.test_spinner import open_cross

    match = open_cross()  # 4-5 5-5 0-5 across, 3-5 3-3 up, 5-6 down
    text = table_alt_text(match.public_view(), ["Ann", "Bob"], None)
    assert "Open ends: left 4, right 0, up 3, down 6." in text
    spanish = table_alt_text(match.public_view(), ["Ann", "Bob"], "es-ES")
    assert "Puntas abiertas: izquierda 4, derecha 0, arriba 3, abajo 6." in spanish
    assert "up 3, down 6" in hand_alt_text(match.view(0), None)
