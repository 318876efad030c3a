"""The file watcher of `pnp build --watch` and `pnp serve` says it is ready only once a save is
sure to be seen: a save made the moment "watching" is printed (or the address given) is caught."""
import threading

from pnp.serve.watch import changes


def test_a_save_made_as_soon_as_the_watcher_is_ready_is_seen(tmp_path):
    card = tmp_path / "cards.yaml"
    stop = threading.Event()
    seen: list = []

    def ready() -> None:                     # the very first moment a designer could save
        card.write_text("- {id: a}\n")

    def run() -> None:
        for batch in changes([tmp_path], stop, ready):
            seen.extend(batch)
            stop.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    stop.set()
    assert not thread.is_alive()
    assert [path for _change, path in seen] == [str(card)]


def test_ready_is_told_once_and_empty_batches_are_not_changes(tmp_path):
    stop = threading.Event()
    told: list[int] = []
    batches: list = []

    def run() -> None:
        for batch in changes([tmp_path], stop, lambda: told.append(1)):
            batches.append(batch)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    threading.Event().wait(1.0)              # four of the watcher's quiet polls
    stop.set()
    thread.join(20)
    assert told == [1] and batches == []
