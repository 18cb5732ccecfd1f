"""Large inputs are decoded with the GIL released: a Python thread keeps running while
another thread is inside a decode, and decoding from several threads at once gives the
same values."""
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from gamewire import godot, o3de


def test_other_thread_runs_while_decoding():
    # 16 MiB PackedByteArray: the Rust decode (and base64 of the JSON form) takes tens of
    # milliseconds, while building the one Python str of json=True is a copy.
    data = godot.encode(bytes(range(256)) * 65536)
    ticks = []
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            ticks.append(time.perf_counter())

    th = threading.Thread(target=counter)
    th.start()
    try:
        time.sleep(0.01)
        t0 = time.perf_counter()
        value = godot.decode(data, json=True)
        t1 = time.perf_counter()
    finally:
        stop.set()
        th.join()
    assert value["$type"] == "PackedByteArray"
    # Holding the GIL, the counter could not record a single time between t0 and t1.
    inside = [t for t in ticks if t0 < t < t1]
    assert len(inside) > 10, (t1 - t0, len(inside))


def test_decode_from_threads():
    data = godot.encode(godot.PackedStringArray([f"s{i}" for i in range(100_000)]))
    text = o3de.encode({"items": [{"n": i, "x": 1.5} for i in range(20_000)]})
    want_g = godot.decode(data)
    want_o = o3de.decode(text)
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda i: godot.decode(data) if i % 2 else o3de.decode(text), range(8)))
    for i, v in enumerate(got):
        assert v == (want_g if i % 2 else want_o)


def test_gc_state_restored():
    import gc

    data = godot.encode([{"a": [1, 2]} for _ in range(1000)])
    assert gc.isenabled()
    godot.decode(data)
    assert gc.isenabled()
    gc.disable()
    try:
        godot.decode(data)
        assert not gc.isenabled()
    finally:
        gc.enable()
