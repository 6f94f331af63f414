"""The inspector page in a real headless Chromium, against a real LocalServer with real data."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from ag2_memorysync import MemorySyncCapability
from memorysync_server import LocalServer
from memorysync_server.http.spec import load_spec
from tests.ag2.scripted import assistant, person, sequence
from tests.server.api import Api

ACME, OTHER = "ms_test_acme_inspector", "ms_test_other_inspector"


@pytest.fixture
def world(tmp_path):
    """Two tenants: acme (alice with memories, a transcript and state; bob) and other (mallory)."""
    with LocalServer(tmp_path / "m.db", keys={ACME: "t_acme", OTHER: "t_other"}) as server:
        acme, other = Api(server, ACME, "t_acme"), Api(server, OTHER, "t_other")
        acme.add("alice", "I live in Bergen", source="agno")
        acme.v1(
            "/v1/history/append",
            "alice",
            session_id="trip-planning",
            source="ag2",
            turns=[
                {"role": "user", "content": "I'm vegan, and I moved to Oslo."},
                {"role": "assistant", "content": "Noted: vegan places in Oslo."},
                {"role": "user", "content": "I always take the window seat."},
            ],
        )
        acme.put("alice", "mem-1", {"memory": "likes teal dashboards"}, namespace=["agno", "memories"])
        acme.turn("bob", "I'm allergic to peanuts")
        other.turn("mallory", "I have a cat named Tom")
        yield server, acme, other
        acme.close()
        other.close()


def _sign_in(page, server: LocalServer, key: str) -> None:
    page.goto(server.base_url + "/")
    page.fill("#api-key", key)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector("#tenant")


def _users(page) -> list[str]:
    return page.locator("button.user .name").all_inner_texts()


def test_sign_in_browse_a_user_and_ask_what_the_model_would_be_handed(world, page, tmp_path) -> None:
    server, acme, _ = world
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    _sign_in(page, server, ACME)
    assert page.inner_text("#tenant") == "t_acme"
    page.wait_for_selector("button.user[data-user=alice]")
    assert sorted(_users(page)) == ["alice", "bob"]
    expected = acme.facts("alice")["memories"]
    assert page.inner_text("button.user[data-user=alice] .memory-count") == f"{len(expected)} memories"

    page.click("button.user[data-user=alice]")
    page.wait_for_selector("li.memory")
    # Memories newest first, exactly the API's list, with source, time and the superseded mark.
    assert page.locator("li.memory .text").all_inner_texts() == [m["text"] for m in expected]
    marked = {
        m["memory_id"]: m["metadata"]["superseded_by"] for m in expected if "superseded_by" in m["metadata"]
    }
    # The server's own supersede logic: the move to Oslo replaced where alice lived.
    bergen, oslo = (
        next(m["memory_id"] for m in expected if place in m["text"]) for place in ("Bergen", "Oslo")
    )
    assert marked == {bergen: oslo}
    for memory in expected:
        row = page.locator(f"li.memory[data-memory={memory['memory_id']}]")
        assert f"source {memory['source']}" in row.inner_text()
        if memory["memory_id"] in marked:
            assert "superseded" in row.get_attribute("class")
            assert f"superseded by {marked[memory['memory_id']]}" in row.inner_text()
            row.locator("summary").click()
            assert '"superseded_by"' in row.locator("pre").inner_text()
        else:
            assert "superseded" not in row.get_attribute("class")
    page.screenshot(path=str(tmp_path / "memories.png"))

    # Transcripts: the session with each turn's role, in order.
    page.click("[data-tab=transcripts]")
    page.wait_for_selector("li.turn")
    assert "trip-planning" in page.inner_text("details.session summary")
    assert page.locator("li.turn .role").all_text_contents() == ["user", "assistant", "user"]
    assert page.locator("li.turn .content").all_inner_texts()[1] == "Noted: vegan places in Oslo."

    # State, grouped by namespace.
    page.click("[data-tab=state]")
    page.wait_for_selector(".namespace h3")
    assert page.inner_text(".namespace h3").startswith("api: agno / memories")
    assert "likes teal dashboards" in page.inner_text(".namespace table")

    # The recall box shows what /v1/memory/recall answers, exactly.
    prompt = "Where should a vegan eat in Oslo tonight?"
    page.click("[data-tab=recall]")
    page.fill("#recall-prompt", prompt)
    page.click("#recall-run")
    page.wait_for_selector("table.ranked")
    answer = acme.http.post(
        "/v1/memory/recall", json={"tenant_id": "t_acme", "user_id": "alice", "prompt": prompt, "k": 5}
    )
    truth = answer.json()
    assert truth["memories"], "the seeded data should make recall answer something"
    assert page.inner_text("pre.context") == truth["context"]
    rows = page.locator("table.ranked tbody tr")
    assert rows.count() == len(truth["memories"])
    for i, memory in enumerate(truth["memories"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[2:] == [memory["memory_id"], memory["text"]]
        assert float(cells[1]) == memory["score"]
    page.locator(".answer summary").click()
    assert page.inner_text("pre.raw") == answer.text

    # Everything the page loaded came from this server: no CDN, nothing else on the network.
    assert requests and all(
        url.startswith(server.base_url + "/") or url.startswith("data:") for url in requests
    )

    if os.environ.get("INSPECTOR_SCREENSHOT"):
        page.click("[data-tab=memories]")
        page.wait_for_selector("li.memory")
        page.screenshot(path=os.environ["INSPECTOR_SCREENSHOT"], full_page=True)


def test_delete_a_memory_then_forget_the_user(world, page) -> None:
    server, acme, _ = world
    _sign_in(page, server, ACME)
    page.click("button.user[data-user=alice]")
    page.wait_for_selector("li.memory")
    victim = next(m for m in acme.facts("alice")["memories"] if m["text"] == "User is vegan")
    row = page.locator(f"li.memory[data-memory={victim['memory_id']}]")
    row.get_by_role("button", name=f"Delete {victim['memory_id']}").click()
    dialog = page.get_by_role("dialog")
    assert "“User is vegan”" in dialog.inner_text() and "this one memory of user alice" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    assert row.count() == 1 and "User is vegan" in acme.texts("alice")

    row.get_by_role("button", name=f"Delete {victim['memory_id']}").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete memory").click()
    row.wait_for(state="detached")
    assert "User is vegan" not in page.locator("li.memory .text").all_inner_texts()
    assert "User is vegan" not in acme.texts("alice")

    left = len(acme.texts("alice"))
    page.get_by_role("button", name="Forget user…").click()
    text = page.get_by_role("dialog").inner_text()
    assert f"{left} memories, 3 transcript turns in 1 session and 1 state item" in text
    assert "tenant t_acme" in text
    page.get_by_role("dialog").get_by_role("button", name="Forget alice").click()
    page.wait_for_selector(".toast")
    assert f"Forgot alice: {left} memories, 3 turns, 1 state item deleted." in page.inner_text(".toast")
    page.locator("button.user[data-user=alice]").wait_for(state="detached")
    assert _users(page) == ["bob"]
    assert acme.texts("alice") == [] and acme.texts("bob") == ["User is allergic to peanuts"]


def test_a_hostile_user_id_is_shown_as_text_and_its_memory_can_be_deleted(world, page) -> None:
    server, acme, _ = world
    user = "zoë/🙂 <b>bold</b> & ?x=1"
    acme.turn(user, "I'm allergic to shellfish")
    _sign_in(page, server, ACME)
    page.get_by_role("button", name=re.compile("zoë")).click()
    page.wait_for_selector("li.memory")
    assert page.inner_text(".user-view h2") == user and page.locator(".user-view h2 b").count() == 0
    page.get_by_role("button", name="Delete m_").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete memory").click()
    page.locator("li.memory").wait_for(state="detached")
    assert acme.texts(user) == []  # the UTF-8 X-End-User-ID reached the right user


def test_a_wrong_key_gets_a_clear_message_and_no_data(world, page) -> None:
    server, *_ = world
    page.goto(server.base_url + "/")
    page.get_by_role("button", name="Sign in").click()
    assert page.inner_text("#signin-error") == "Paste an API key first."
    page.fill("#api-key", "ms_test_not_a_real_key")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#signin-error")).to_contain_text("did not accept")
    message = page.inner_text("#signin-error")
    assert "This server did not accept that key" in message and "Unknown API key" in message
    assert "printed at start-up" in message
    assert page.locator("button.user").count() == 0 and page.locator("#tenant").count() == 0


def test_another_tenants_users_never_appear(world, page) -> None:
    server, _, other = world
    _sign_in(page, server, OTHER)
    page.wait_for_selector("button.user")
    assert page.inner_text("#tenant") == "t_other"
    assert _users(page) == ["mallory"]
    page.click("button.user[data-user=mallory]")
    page.wait_for_selector("li.memory")
    assert page.locator("li.memory .text").all_inner_texts() == other.texts("mallory")
    # Polling keeps the list scoped too, while acme keeps writing.
    Api(server, ACME, "t_acme").turn("carol", "I moved to Lisbon")
    polled = page.inner_text(".live")
    expect(page.locator(".live")).not_to_have_text(polled, timeout=8000)
    assert _users(page) == ["mallory"]


def test_the_page_updates_while_a_real_ag2_chat_runs(world, page) -> None:
    """A real ConversableAgent chat (only the model is scripted) writes through the capability;
    the open page shows each memory while the chat is still going, without a reload."""
    server, acme, _ = world
    _sign_in(page, server, ACME)
    page.locator("button.user[data-user=bob]").wait_for()
    memory = MemorySyncCapability(user_id="ana", session_id="live", api_key=ACME, base_url=server.base_url)
    seen_mid_chat: list[str] = []

    def second_line() -> str:
        # The chat is paused at the person's turn: the first fact must already be on the page.
        assert memory.flush(5)
        page.click("button.user[data-user=ana]")
        page.locator("li.memory .text", has_text="User is vegan").wait_for()
        seen_mid_chat.extend(page.locator("li.memory .text").all_inner_texts())
        return "I moved to Lisbon last spring."

    bot, _ = assistant(sequence(["Noted, vegan it is.", "Lisbon is lovely."]))
    user = person([second_line])
    memory.add_to_agent(bot)
    memory.add_to_agent(user)
    try:
        user.initiate_chat(bot, message="I'm vegan.", silent=True)
        assert memory.flush(5)
    finally:
        memory.close(timeout=2)
    assert seen_mid_chat == ["User is vegan"]
    page.locator("li.memory .text", has_text="User moved to Lisbon").wait_for()
    assert page.locator("li.memory .text").all_inner_texts() == acme.texts("ana")
    expect(page.locator("button.user[data-user=ana] .memory-count")).to_have_text("2 memories")
    page.click("[data-tab=transcripts]")
    expect(page.locator("li.turn .role")).to_have_text(["user", "assistant", "user", "assistant"])


def test_the_key_stays_in_this_tab(world, page, browser_context) -> None:
    server, *_ = world
    _sign_in(page, server, ACME)
    page.reload()
    page.wait_for_selector("#tenant")  # same tab: still signed in
    assert page.evaluate("localStorage.length") == 0 and browser_context.cookies() == []
    other_tab = browser_context.new_page()
    try:
        other_tab.goto(server.base_url + "/")
        other_tab.wait_for_selector("#api-key")
        assert other_tab.locator("#tenant").count() == 0
    finally:
        other_tab.close()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("#api-key")
    assert page.evaluate("sessionStorage.length") == 0


def test_docs_render_every_operation_of_the_spec(server: LocalServer, page) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(server.base_url + "/docs")
    page.wait_for_selector(".opblock")
    shown = {
        (method.strip().upper(), path.strip().replace("\u200b", ""))
        for method, path in zip(
            page.locator(".opblock-summary-method").all_inner_texts(),
            page.locator(".opblock-summary-path").all_inner_texts(),
            strict=True,
        )
    }
    assert shown == {(op.method, op.path) for op in load_spec().operations}
    assert server.base_url in page.inner_text(".servers")
    # "Try it out" reaches this server with the key typed into Authorize.
    page.click(".auth-wrapper button.authorize")
    page.fill(".dialog-ux input", server.api_key)
    page.click(".dialog-ux button.modal-btn.authorize")
    page.click(".dialog-ux button.btn-done")
    block = page.locator(".opblock", has_text="/org/projects")
    block.locator(".opblock-summary").click()
    block.get_by_role("button", name="Try it out").click()
    block.get_by_role("button", name="Execute").click()
    answered = block.locator(".live-responses-table tbody")
    expect(answered.locator(".response-col_status").first).to_have_text("200")
    expect(answered).to_contain_text(f'"tenant_id": "{server.tenant_id}"')
    # Offline: Swagger UI, its styles and the spec all came from this server.
    assert requests and all(
        url.startswith(server.base_url + "/") or url.startswith("data:") for url in requests
    )


# ---- small screens and the keyboard ------------------------------------------------------------
def _open_alice(page, server: LocalServer, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 760})
    _sign_in(page, server, ACME)
    page.click("button.user[data-user=alice]")
    page.wait_for_selector("li.memory")


@pytest.mark.parametrize("width", [375, 1280])
def test_the_page_fits_the_screen_without_sideways_scrolling(world, page, width) -> None:
    server, _, _ = world
    _open_alice(page, server, width)
    for tab in ("memories", "transcripts", "state", "recall"):
        page.click(f"button[data-tab={tab}]")
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1] == width, (tab, widths)
    users = page.locator(".users").bounding_box()
    view = page.locator(".user-view").bounding_box()
    if width == 375:  # one column: the user list above the user
        assert view["y"] >= users["y"] + users["height"] and view["width"] > 300
    else:  # two columns side by side
        assert view["x"] >= users["x"] + users["width"] and abs(view["y"] - users["y"]) < 2


@pytest.mark.parametrize("width", [375, 1280])
def test_the_delete_dialog_takes_focus_keeps_it_and_gives_it_back(world, page, width) -> None:
    server, acme, _ = world
    _open_alice(page, server, width)
    memory = acme.facts("alice")["memories"][0]["memory_id"]
    opener = page.get_by_role("button", name=f"Delete {memory}")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    focused = "document.activeElement.textContent"
    # The safe choice has focus as soon as the dialog shows (expect waits for the render).
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    for _ in range(5):  # Tab and Shift+Tab go round the dialog's two buttons, never behind it
        page.keyboard.press("Tab")
        assert page.evaluate("document.querySelector('.dialog').contains(document.activeElement)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) in ("Cancel", "Delete memory")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    expect(opener).to_be_focused()
    assert memory in [m["memory_id"] for m in acme.facts("alice")["memories"]]  # Escape deleted nothing
