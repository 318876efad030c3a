"""`pnp serve`: the live preview, over plain HTTP and in a real browser (Debian's chromium).

Every test runs `pnp serve` in a subprocess on a free port (`--port 0`: the address it prints)
against a copy of tests/packs/tiny, and stops it afterwards; every wait is bounded.
"""
import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

TINY = Path(__file__).parent / "packs" / "tiny"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WAIT = 20          # seconds: the most any wait below lasts before the test fails


class Served:
    """A `pnp serve` child process and its address."""

    def __init__(self, pack: Path):
        self.process = subprocess.Popen([sys.executable, "-m", "pnp.cli", "serve", str(pack), "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first: list[str] = []
        reader = threading.Thread(target=lambda: first.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(WAIT)
        if not first or "http://" not in first[0]:
            self.stop()
            raise AssertionError(f"pnp serve did not start: {first} {self.process.stderr.read()}")
        self.url = first[0].split()[2].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=WAIT) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def raw(self, path: str, host: str | None = None) -> int:
        """The status of a GET of `path` sent exactly as written (no client-side normalising)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        try:
            connection.putrequest("GET", path, skip_host=True)
            connection.putheader("Host", host or f"127.0.0.1:{self.port}")
            connection.endheaders()
            return connection.getresponse().status
        finally:
            connection.close()

    def state(self) -> dict:
        status, body = self.get("/api/state")
        assert status == 200
        return json.loads(body)

    def wait_for(self, condition, what: str) -> dict:
        """The first state that meets `condition`, polled for at most WAIT seconds."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = self.state()
            if condition(state):
                return state
            time.sleep(0.05)
        raise AssertionError(f"no {what} within {WAIT} s; last state: {self.state()}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()


@pytest.fixture
def pack(tmp_path) -> Path:
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    return target


@pytest.fixture
def serve(pack):
    started: list[Served] = []

    def start() -> Served:
        started.append(Served(pack))
        return started[-1]
    yield start
    for served in started:
        served.stop()


def save(path: Path, text: str) -> None:
    """Save as editors do: write beside the pack, then rename over the file (one change to watch)."""
    root = next(folder for folder in path.parents if (folder / "pack.yaml").is_file())
    staging = root.parent / f".{path.name}.saving"
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    save(path, text.replace(old, new))


def card(state: dict, card_id: str) -> dict:
    return next(c for c in state["cards"] if c["id"] == card_id)


# ------------------------------------------------------------------ plain HTTP
def test_only_its_own_routes_are_served(serve, pack):
    served = serve()
    assert served.get("/")[0] == 200
    for path in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/img/../../etc/passwd", "/pack.yaml",
                 "/cards/main.yaml", "/templates/tiny/front.svg.j2", f"/{pack}/pack.yaml", "/img/" + "0" * 40 + ".png",
                 "/img/../pack.yaml.png", "/view/../../etc/passwd"]:
        assert served.raw(path) == 404, path
    assert served.raw("/", host="evil.example:80") == 403         # DNS rebinding: not our Host
    face = card(served.state(), "alpha")["faces"][0]
    status, png = served.get(f"/img/{face}.png")
    assert status == 200 and png.startswith(b"\x89PNG")


def test_card_text_is_escaped(serve, pack):
    edit(pack / "text" / "en.yaml", "{title: Alpha,", "{title: \"<script>alert(1)</script>\",")
    served = serve()
    _, cards = served.get("/view?tab=cards&lang=en")
    _, detail = served.get("/card?id=alpha&lang=en")
    for html in (cards.decode(), detail.decode()):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<script>alert(1)" not in html
    assert "<script>alert(1)</script>" in card(served.state(), "alpha")["texts"]


def test_one_card_edit_redraws_only_that_cards_faces(serve, pack):
    served = serve()
    before = served.state()
    assert before["redraws"] == 10                     # 5 card instances (alpha x3, beta, gamma), 2 faces each
    started = time.monotonic()
    edit(pack / "text" / "en.yaml", "{title: Alpha,", "{title: Omega,")
    after = served.wait_for(lambda s: "Omega" in card(s, "alpha")["texts"], "new alpha title")
    print(f"one-card edit visible in the state after {time.monotonic() - started:.3f} s")
    assert after["redraws"] - before["redraws"] == 6   # alpha#1..#3, front and back
    assert {face.split("#")[0].split(":")[0] for face in after["last_redrawn"]} == {"alpha"}
    assert after["rasterized"] - before["rasterized"] == 1   # only the new front: the backs' SVG is unchanged
    assert card(after, "beta")["faces"] == card(before, "beta")["faces"]
    assert card(after, "alpha")["faces"][0] != card(before, "alpha")["faces"][0]


def test_a_template_edit_redraws_the_faces_that_use_it(serve, pack):
    served = serve()
    before = served.state()
    edit(pack / "templates" / "tiny" / "second.svg.j2", "#557755", "#775555")      # gamma's back only
    after = served.wait_for(lambda s: s["redraws"] > before["redraws"], "a redraw")
    assert after["last_redrawn"] == ["gamma:back"]
    assert card(after, "gamma")["faces"][1] != card(before, "gamma")["faces"][1]


def test_findings_stand_beside_their_card(serve, pack):
    edit(pack / "text" / "en.yaml", "body: Two faces", "body: " + "Far too long for the box. " * 40)
    served = serve()
    gamma = card(served.state(), "gamma")
    fits = [f for f in gamma["findings"] if f["rule"] == "text.fit"]
    assert fits and fits[0]["file"].endswith("cards/main.yaml") and fits[0]["line"] == 3
    assert card(served.state(), "beta")["findings"] == []
    _, html = served.get("/view?tab=cards")
    assert "main.yaml:3: card gamma: [en] front: error [text.fit]" in html.decode()


def test_sheets_and_components_views(serve):
    served = serve()
    _, html = served.get("/view?tab=sheets&paper=letter")
    pages = [part.split('"')[0] for part in html.decode().split('<img src="')[1:]]
    assert len(pages) == 2                             # 5 poker cards: one sheet, front and back
    assert all(served.get(page)[1].startswith(b"\x89PNG") for page in pages)
    _, html = served.get("/view?tab=components")
    assert "this pack has no components" in html.decode()


def test_unknown_game_is_a_message():
    result = CliRunner().invoke(main, ["serve", "no-such-game"])
    assert result.exit_code == 2
    assert "unknown game 'no-such-game'" in result.output


# ------------------------------------------------------------------ in a browser
@pytest.fixture
def browser(tmp_path):
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--no-first-run", f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


def test_the_page_follows_the_edits(serve, pack, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as shown
    from selenium.webdriver.support.ui import WebDriverWait

    served = serve()
    browser.get(served.url + "/")
    wait = WebDriverWait(browser, WAIT)
    caption = (By.CSS_SELECTOR, '[data-card="alpha"] figcaption')
    wait.until(shown.text_to_be_present_in_element(caption, "Alpha"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "figure.card")) == 3
    assert "Alpha" in browser.find_element(By.CSS_SELECTOR, '[data-card="alpha"] img').get_attribute("alt")

    started = time.monotonic()
    edit(pack / "text" / "en.yaml", "{title: Alpha,", "{title: Omega,")
    wait.until(shown.text_to_be_present_in_element(caption, "Omega"))
    print(f"one-card edit shown in the browser after {time.monotonic() - started:.3f} s")

    cards = pack / "cards" / "main.yaml"
    good = cards.read_text(encoding="utf-8")
    save(cards, good + "- {id: delta, kind: plain, title: [card.alpha.title\n")
    # the parser notices the missing "]" at the end of the file; the line said is where "[" opens (see `pnp check`)
    wait.until(shown.text_to_be_present_in_element((By.ID, "errors"), "cards/main.yaml:4"))
    assert not browser.find_elements(By.CSS_SELECTOR, "figure.card")       # no stale cards

    save(cards, good)
    wait.until(shown.text_to_be_present_in_element(caption, "Omega"))

    browser.find_element(By.CSS_SELECTOR, '[data-card="beta"] img').click()
    wait.until(shown.text_to_be_present_in_element((By.ID, "card-detail"), "cards/main.yaml:2"))
    detail = browser.find_element(By.ID, "card-detail").text
    assert "1 copy" in detail and "Beta" in detail and "14 pt" in detail and "55×12 mm" in detail
