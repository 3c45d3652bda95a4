"""The replay page in a real browser: headless Chromium, driven by Selenium.

Each game's won line is stepped through with the keyboard, and after every step the cards
the page shows in each zone (read from the DOM's data-zone and data-card attributes) must
be the reference rules' table after that move, read through the game's layout
(``layout.zone_cards``), a path that shares nothing with the picture code. Run alone:

    .venv/bin/python -m pytest -q -m browser -s

Needs Debian's ``chromium`` and ``chromium-driver`` and Selenium (the ``browser`` extra). A
machine without them skips these tests; CI (``CI`` set) fails instead, since it must run them.
"""

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from solver.cards import card_name
from solver.deals import deal_from_seed
from solver.hints import Review
from solver.moves import parse_move
from solver.pictures.html import Line, page
from solver.pictures.pages import review_page
from solver.pictures.steps import line_steps
from solver.pictures.svg import render
from solver.registry import game
from solver.solve import solve
from tests.test_replay_page import BETTER, losing_pyramid, random_line

pytestmark = [pytest.mark.browser, pytest.mark.slow]   # CI runs the slow suite too

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# without the network flags Chromium waits on connections a machine without a network refuses
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1100,900"]

# seeds whose won lines are short (found with solve(..., max_nodes=300_000))
LINES = [("klondike", 6, {}), ("pyramid", 2, {"passes": 3}), ("twenty", 7, {}), ("ladder", 4, {"passes": 1}),
         ("golf", 2, {})]

READ_ZONES = """return Array.from(document.querySelectorAll('#board [data-zone]')).map(function (g) {
  return [g.getAttribute('data-zone'), Array.from(g.querySelectorAll('.card')).map(function (c) {
    return [c.getAttribute('data-card'), c.getAttribute('data-face'), c.classList.contains('moved'),
            c.getAttribute('transform')]; })]; });"""
READ_STATE = """var items = document.querySelectorAll('#moves li');
  var current = Array.prototype.findIndex.call(items, function (li) { return li.classList.contains('current'); });
  return [current, parseInt(document.getElementById('slider').value, 10), document.getElementById('now').textContent,
          document.getElementById('play').getAttribute('aria-label')];"""


def missing() -> str | None:
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.exists(path) or shutil.which(path)):
            return f"{path} not found: apt-get install -y {package}"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[browser]'"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def open_page(driver, path: Path) -> float:
    """Load ``path`` from disk (file://); the milliseconds until its script had drawn the first table."""
    driver.get(path.resolve().as_uri())
    for _ in range(100):
        if driver.execute_script("return document.body.getAttribute('data-ready')") == "1":
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the page's script never finished")
    return driver.execute_script("return performance.now()")


def press(driver, key):
    from selenium.webdriver.common.by import By

    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def shown(driver) -> dict:
    return {zone: cards for zone, cards in driver.execute_script(READ_ZONES)}


def assert_table_is(table: dict, expected_deal, where: str):
    layout = game(expected_deal.game).layout
    for zone, cards in table.items():
        expected = layout.zone_cards(expected_deal, zone)
        assert expected is not None, f"{where}: the page draws {zone}, which is no zone of {expected_deal.game}"
        assert [c[0] for c in cards] == [card_name(c) for c in expected], f"{where}: zone {zone}"
    drawn = sum(len(cards) for cards in table.values())
    assert drawn == 52 * game(expected_deal.game).decks, f"{where}: {drawn} cards drawn"


def positions_in_python_svg(scene, changes) -> dict:
    """zone -> card transforms as solver/pictures/svg.py draws the same table."""
    text = render(scene, changes)
    out = {}
    for zone, body in re.findall(r'<g data-zone="([^"]+)">(.*?)(?=<g data-zone=|</g></svg>)', text):
        out[zone] = [tuple(float(v) for v in m) for m in re.findall(r'translate\(([-\d.]+),([-\d.]+)\)', body)]
    return out


def transforms(table: dict) -> dict:
    return {zone: [tuple(float(v) for v in re.findall(r"[-\d.]+", c[3])) for c in cards]
            for zone, cards in table.items()}


@pytest.mark.parametrize("name,seed,options", LINES, ids=[g for g, _, _ in LINES])
def test_stepping_through_a_won_line_shows_the_rules_tables(browser, tmp_path, name, seed, options):
    from selenium.webdriver.common.keys import Keys

    deal = deal_from_seed(name, seed, options)
    result = solve(deal, max_nodes=300_000)
    assert result.verdict == "won"
    moves = result.moves
    path = tmp_path / f"{name}.html"
    path.write_text(result.replay_html(), encoding="utf-8")
    open_page(browser, path)
    rules = game(name).rules
    steps = line_steps(deal, moves)
    pos = rules.initial(deal)
    first = shown(browser)
    assert_table_is(first, rules.to_deal(pos), "start")
    # the page's script and the Python drawing place every card alike
    assert transforms(first) == positions_in_python_svg(steps[0].scene, steps[0].changes)
    browser.save_screenshot(str(tmp_path / f"{name}-first.png"))
    for k, move in enumerate(moves, 1):
        press(browser, Keys.ARROW_RIGHT)
        pos = rules.play(pos, move)
        table = shown(browser)
        assert_table_is(table, rules.to_deal(pos), f"after move {k} ({move})")
        if move.type == "move":     # the card moved is marked where it lands
            marked = [c[0] for c in table[move.to] if c[2]]
            assert marked[0] == card_name(move.card) and len(marked) == move.count, (k, move, marked)
        current, slider, now, _ = browser.execute_script(READ_STATE)
        assert current == slider == k and f"[{move}]" in now, (k, now)
    assert rules.is_won(pos)
    assert transforms(table) == positions_in_python_svg(steps[-1].scene, steps[-1].changes)
    browser.save_screenshot(str(tmp_path / f"{name}-last.png"))
    print(f"\n{name}: screenshots of the first and last step in {tmp_path}")
    # back, first, last
    press(browser, Keys.ARROW_LEFT)
    assert browser.execute_script(READ_STATE)[0] == len(moves) - 1
    press(browser, Keys.HOME)
    assert browser.execute_script(READ_STATE)[0] == 0
    assert_table_is(shown(browser), deal, "after Home")
    press(browser, Keys.END)
    assert browser.execute_script(READ_STATE)[0] == len(moves)


def test_buttons_slider_list_and_play(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    deal = deal_from_seed("pyramid", 2, {"passes": 3})
    moves = solve(deal, max_nodes=300_000).moves
    path = tmp_path / "pyramid.html"
    path.write_text(page("Pyramid", [Line("line", deal, moves)]), encoding="utf-8")
    open_page(browser, path)
    rules = game("pyramid").rules
    tables = [rules.initial(deal)]
    for m in moves:
        tables.append(rules.play(tables[-1], m))

    def at(k):
        assert browser.execute_script(READ_STATE)[0] == k
        assert_table_is(shown(browser), rules.to_deal(tables[k]), f"step {k}")

    browser.find_elements(By.CSS_SELECTOR, "#moves li")[7].click()
    at(7)
    browser.find_element(By.ID, "next").click()
    at(8)
    browser.find_element(By.ID, "prev").click()
    browser.find_element(By.ID, "prev").click()
    at(6)
    browser.find_element(By.ID, "last").click()
    at(len(moves))
    browser.find_element(By.ID, "first").click()
    at(0)
    browser.execute_script("var s = document.getElementById('slider'); s.value = 20;"
                           "s.dispatchEvent(new Event('input'));")
    at(20)
    press(browser, Keys.SPACE)                        # play ...
    assert browser.execute_script(READ_STATE)[3] == "pause"
    time.sleep(1.6)
    press(browser, Keys.SPACE)                        # ... and pause
    state = browser.execute_script(READ_STATE)
    assert state[3] == "play" and 21 <= state[0] <= 24, state
    at(state[0])
    time.sleep(0.8)
    assert browser.execute_script(READ_STATE)[0] == state[0]     # paused means paused
    # Space on a focused button plays or pauses once, not twice (key and click)
    browser.find_element(By.ID, "next").click()
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    assert browser.execute_script(READ_STATE)[3] == "pause"
    press(browser, Keys.SPACE)


def test_review_page_marks_the_moves_and_switches_lines(browser, tmp_path):
    from selenium.webdriver.common.by import By

    d = losing_pyramid()
    lost, better = parse_move("remove 7H@stock 6D@waste"), BETTER[0]
    path = tmp_path / "review.html"
    path.write_text(review_page(Review(d, [lost], {}, "lost_at", lost_at=1, lo=0, hi=1, better=better,
                                       better_line=BETTER)), encoding="utf-8")
    open_page(browser, path)
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert "lost" in items[1].get_attribute("class") and "instead" in items[1].text
    assert shown(browser)["p1.1"] != [] and browser.execute_script(READ_STATE)[0] == 1   # opens at the lost move
    browser.find_elements(By.CSS_SELECTOR, "#lines button")[1].click()
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert "better" in items[1].get_attribute("class")
    browser.find_element(By.ID, "last").click()
    assert shown(browser)["p1.1"] == []                # the better move clears the pyramid


def test_a_250_move_klondike_page_opens_in_under_a_second(browser, tmp_path):
    deal = deal_from_seed("klondike", 8, {"draw": 3, "passes": None})
    moves = random_line(deal, 250, seed=1)
    path = tmp_path / "klondike-250.html"
    path.write_text(page("Klondike", [Line("line", deal, moves)]), encoding="utf-8")
    ms = open_page(browser, path)
    print(f"\n250-move Klondike page: {path.stat().st_size:,} bytes, drawn {ms:.0f} ms after navigation")
    assert path.stat().st_size < 300_000 and ms < 1000
