"""Consent and the per-player event stream through the running stack (real HTTP, real Redis,
matchmaking under gunicorn's gevent worker as deploy/Procfile runs it)."""
import json
import queue
import threading

import requests

from tests.support.stack import Client, seat_players, wait_for

PROBLEM = "application/problem+json"


class Watch:
    """A live SSE connection read on a thread: ``next_event`` waits (generously) for the next event."""

    def __init__(self, url, token, last_event_id=None):
        headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.resp = requests.get(url, headers=headers, stream=True, timeout=(10, 120))
        assert self.resp.status_code == 200, self.resp.text
        self.events, self.comments = queue.Queue(), queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.comments.get(timeout=30).startswith(": connected")

    def _read(self):
        event = {}
        try:
            for line in self.resp.iter_lines(decode_unicode=True):
                if line.startswith(":"):
                    self.comments.put(line)
                elif line == "":
                    if event:
                        self.events.put(event)
                    event = {}
                else:
                    field, _, value = line.partition(": ")
                    event[field] = json.loads(value) if field == "data" else value
        except (requests.RequestException, AttributeError, ValueError):
            pass

    def next_event(self, timeout=60):
        return self.events.get(timeout=timeout)

    def next_of(self, kind, timeout=60):
        """The next event of this type (skipping others, returned too) and what it skipped."""
        skipped = []
        while True:
            ev = self.next_event(timeout)
            if ev["event"] == kind:
                return ev, skipped
            skipped.append(ev)

    def close(self):
        self.resp.close()


def stream_url(stack):
    return f"{stack.mm}/v1/players/me/stream"


def test_seating_a_victim_at_a_one_second_table_no_longer_starts_a_match_for_them(stack):
    """The abuse of issue 10: a stranger seats a victim with turn_seconds 1. Now the seat is only an
    invitation: no match, no time-out, no rating for the victim, ever, unless they accept."""
    attacker, victim = Client.register(stack, "attacker"), Client.register(stack, "victim")
    watch = Watch(stream_url(stack), victim.token)
    try:
        r = attacker.post(f"{stack.mm}/v1/tables", json={"game": "duel", "turn_seconds": 1, "invite_ttl_s": 1, "seats": [
            {"player_id": victim.player_id}, {"bot": "random"}, {"bot": "random"}]})
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["status"] == "open" and "match_id" not in table
        assert table["seats"][0]["invited"] == victim.player_id and "player_id" not in table["seats"][0]
        invitation = watch.next_event()
        assert invitation["event"] == "invitation" and invitation["data"]["table_id"] == table["table_id"]
        assert invitation["data"]["host"] == attacker.player_id and invitation["data"]["seat"] == 0
        started = attacker.post(f"{stack.mm}/v1/tables/{table['table_id']}/start", json={"fill_with_bots": "greedy"})
        assert started.status_code == 409 and started.json()["type"] == "urn:problem:invitation-pending"
        lapsed = wait_for(lambda: (lambda t: t["seats"][0].get("open") and t)(
            requests.get(f"{stack.mm}/v1/tables/{table['table_id']}").json()), 30, what="the invitation to lapse")
        assert lapsed["status"] == "open"
        expired, _ = watch.next_of("invitation_expired")
        assert expired["data"]["table_id"] == table["table_id"]
        started = attacker.post(f"{stack.mm}/v1/tables/{table['table_id']}/start", json={"fill_with_bots": "greedy"})
        assert started.status_code == 200, started.text
        match_id = started.json()["match_id"]
        match = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()
        assert [s.get("bot") for s in match["seats"]] == ["greedy", "random", "random"]
        assert all(s.get("player_id") != victim.player_id for s in match["seats"])
        result = wait_for(lambda: (lambda x: x.status_code == 200 and x.json())(
            requests.get(f"{stack.scoring}/v1/results/{match_id}")), 90, what="the bot match to be scored")
        assert victim.player_id not in result["ratings"]
        assert requests.get(f"{stack.scoring}/v1/players/{victim.player_id}/ratings").json()["ratings"] == {}
        assert watch.events.empty()  # no match_started, your_turn or match_ended for the victim
    finally:
        watch.close()


def test_an_invitee_sees_the_invitation_accepts_it_and_the_match_starts(stack):
    host, guest, stranger = (Client.register(stack, n) for n in ("inv-host", "inv-guest", "inv-stranger"))
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": host.player_id}, {"player_id": guest.player_id}]})
    assert r.status_code == 201 and r.json()["status"] == "open" and "match_id" not in r.json()
    table_id = r.json()["table_id"]
    mine = guest.get(f"{stack.mm}/v1/tables", params={"invited": "me"}).json()
    assert [t["table_id"] for t in mine] == [table_id]
    assert stranger.get(f"{stack.mm}/v1/tables", params={"invited": "me"}).json() == []
    assert stranger.post(f"{stack.mm}/v1/tables/{table_id}/join", json={}).status_code == 409  # reserved
    joined = guest.post(f"{stack.mm}/v1/tables/{table_id}/join", json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["status"] == "started"
    match = requests.get(f"{stack.rules}/v1/matches/{joined.json()['match_id']}").json()
    assert [s["player_id"] for s in match["seats"]] == [host.player_id, guest.player_id]
    assert requests.get(f"{stack.mm}/v1/tables/{table_id}").json()["status"] == "started"


def test_the_player_stream_tells_of_invitations_turns_start_and_end_and_resumes(stack):
    host, guest = Client.register(stack, "st-host"), Client.register(stack, "st-guest")
    watch = Watch(stream_url(stack), guest.token)
    try:
        table = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "options": {"rounds": 1}, "seats": [
            {"player_id": host.player_id}, {"player_id": guest.player_id}]}).json()
        invitation = watch.next_event()
        assert invitation["event"] == "invitation" and invitation["data"]["table_id"] == table["table_id"]
        match_id = guest.post(f"{stack.mm}/v1/tables/{table['table_id']}/join", json={}).json()["match_id"]
        started = watch.next_event()
        assert started["event"] == "match_started"
        assert started["data"]["match_id"] == match_id and started["data"]["seat"] == 1
        turn = watch.next_event()
        assert turn["event"] == "your_turn" and turn["data"]["match_id"] == match_id and turn["data"]["seat"] == 1
        legal = guest.get(f"{stack.rules}/v1/matches/{match_id}/legal-moves").json()
        assert legal["version"] == turn["data"]["version"] and legal["moves"]
        assert guest.post(f"{stack.rules}/v1/matches/{match_id}/resign").status_code == 201
        ended, skipped = watch.next_of("match_ended")
        assert ended["data"]["match_id"] == match_id and ended["data"]["status"] == "finished"
        assert all(e["event"] == "your_turn" for e in skipped)
        seen = [invitation, started, turn, *skipped, ended]
        assert len({e["id"] for e in seen}) == len(seen)
    finally:
        watch.close()
    resumed = Watch(stream_url(stack), guest.token, last_event_id=invitation["id"])
    try:
        again = [resumed.next_event() for _ in seen[1:]]
        assert [(e["id"], e["event"]) for e in again] == [(e["id"], e["event"]) for e in seen[1:]]
    finally:
        resumed.close()


def test_a_bad_last_event_id_is_a_400_problem(stack):
    me = Client.register(stack, "bad-resume")
    for bad in ("-5", "x", "18446744073709551616"):
        r = me.get(f"{stack.mm}/v1/players/me/stream", headers={"Last-Event-ID": bad})
        assert r.status_code == 400 and r.headers["Content-Type"].startswith(PROBLEM), r.text
    assert requests.get(f"{stack.mm}/v1/players/me/stream", timeout=30).status_code == 401


def test_idle_player_streams_hold_no_thread_and_send_keep_alives(stack):
    """Under the gevent worker, 40 idle watchers (more than the old 8 threads) leave the service free."""
    players = [Client.register(stack, f"idle-watcher-{i}") for i in range(4)]
    watches = [Watch(stream_url(stack), players[i % 4].token) for i in range(40)]
    try:
        assert requests.get(f"{stack.mm}/v1/games", timeout=30).status_code == 200
        host = Client.register(stack, "busy-host")
        r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
            {"player_id": host.player_id}, {"player_id": players[0].player_id}]})
        assert r.status_code == 201
        for w in watches[0::4]:  # every watcher of players[0] hears of it
            assert w.next_event()["event"] == "invitation"
        assert watches[1].comments.get(timeout=30).startswith(": keep-alive")  # SSE_KEEPALIVE_S=1 in the stack
    finally:
        for w in watches:
            w.close()


def test_a_rotated_token_is_refused_by_the_rules_service_too(stack):
    a, b = Client.register(stack, "rot-a"), Client.register(stack, "rot-b")
    match_id = seat_players(a, {"game": "duel", "seats": [{"player_id": a.player_id}, {"player_id": b.player_id}]}, [b])
    assert a.get(f"{stack.rules}/v1/matches/{match_id}/legal-moves").status_code == 200
    old = a.token
    rotated = a.post(f"{stack.mm}/v1/players/me/token")
    assert rotated.status_code == 201
    a.token = rotated.json()["token"]
    assert a.get(f"{stack.rules}/v1/matches/{match_id}/legal-moves").status_code == 200
    r = requests.get(f"{stack.rules}/v1/matches/{match_id}/legal-moves", headers={"Authorization": f"Bearer {old}"},
                     timeout=30)
    assert r.status_code == 401 and r.headers["Content-Type"].startswith(PROBLEM)


def test_the_example_stream_bot_accepts_an_invitation_and_plays_a_match_to_the_end(stack):
    """scripts/stream_bot.py, the documented example: it learns of everything through its stream."""
    from scripts.stream_bot import StreamBot

    host, account = Client.register(stack, "sb-host"), Client.register(stack, "sb-account")
    bot = StreamBot(stack.api(account.token), seed=7, log=lambda _m: None)
    result = {}
    runner = threading.Thread(target=lambda: result.update(ended=bot.run(matches=1)), daemon=True)
    runner.start()
    assert bot.connected.wait(30), "the bot did not connect"
    table = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "options": {"rounds": 2}, "seats": [
        {"player_id": account.player_id}, {"bot": "random"}]}).json()
    runner.join(120)
    assert not runner.is_alive(), "the stream bot did not finish its match"
    match_id = requests.get(f"{stack.mm}/v1/tables/{table['table_id']}").json()["match_id"]
    assert result["ended"] == [match_id]
    match = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()
    assert match["status"] == "finished" and not match["seats"][0].get("abandoned")
    events = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"limit": 1000}).json()["events"]
    assert any(e["type"] == "committed" and e["data"]["seat"] == 0 for e in events)

