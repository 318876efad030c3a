"""pnp.keptparses: what cache lines parsed to, kept by key with the text compared, bounded."""
from __future__ import annotations

import json
import threading

from pnp.keptparses import KeptParses


def counting() -> tuple[KeptParses[dict], list[str]]:
    parsed: list[str] = []

    def parse(text: str) -> dict | None:
        parsed.append(text)
        value = json.loads(text)
        return value if isinstance(value, dict) else None

    return KeptParses(parse, limit=45), parsed


def test_a_line_read_again_with_its_text_is_not_parsed_again():
    kept, parsed = counting()
    text = json.dumps({"n": 1})
    first = kept.get("key", text)
    assert first == {"n": 1} and parsed == [text]
    assert kept.get("key", "".join(text)) is first and parsed == [text]     # an equal text, another object


def test_a_changed_text_under_a_key_is_parsed_again_and_replaces_it():
    kept, parsed = counting()
    kept.get("key", '{"n": 1}')
    assert kept.get("key", '{"n": 2}') == {"n": 2} and len(parsed) == 2
    assert kept.keys() == ["key"] and kept.size == len('{"n": 2}')
    assert kept.get("other", '{"n": 2}') == {"n": 2} and len(parsed) == 3     # keyed by key, not text


def test_what_is_not_a_value_is_never_kept():
    kept, parsed = counting()
    assert kept.get("key", "[1]") is None and kept.get("key", "[1]") is None
    assert len(parsed) == 2 and kept.keys() == [] and kept.size == 0


def test_at_most_limit_characters_are_kept_the_oldest_dropped_first():
    kept, parsed = counting()
    texts = [json.dumps({"n": n, "pad": "x" * 3}) for n in range(4)]       # 22 characters each
    for n, text in enumerate(texts):
        kept.get(f"key{n}", text)
    assert kept.keys() == ["key2", "key3"] and kept.size == 44
    longer = json.dumps({"n": 4, "pad": "x" * 4})                           # 23: 45 in all, the limit
    kept.keep("key2", longer, {"n": 4})
    assert kept.keys() == ["key3", "key2"] and kept.size == 45
    assert kept.get("key2", longer) == {"n": 4}
    parsed.clear()
    assert kept.get("key0", texts[0]) == {"n": 0, "pad": "xxx"} and parsed == [texts[0]]   # dropped: parsed again
    assert kept.keys() == ["key2", "key0"] and kept.size == 45
    kept.get("huge", json.dumps({"pad": "x" * 60}))                          # alone over the limit: not kept
    assert kept.keys() == [] and kept.size == 0
    kept.get("key1", texts[1])
    kept.clear()
    assert kept.keys() == [] and kept.size == 0


def test_builds_in_threads_share_one_table_and_its_count():
    kept = KeptParses(lambda text: {"text": text}, limit=10_000)

    def work(n: int) -> None:
        for i in range(200):
            kept.get(f"k{(n * 7 + i) % 50}", f"t{i % 3}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert kept.size == sum(len(kept._kept[key][0]) for key in kept.keys()) and len(kept.keys()) == 50
