"""Hostile values never crash the interpreter: values nested far past the limits, values
that contain themselves and objects whose ``_gamewire_json()`` gives themselves raise
``ValueError`` from every encoder; the decoders build Python values for inputs nested to
their own limits (and at the memory bound of docs/FORMATS.md).

Each case runs in a child interpreter, so a crash (SIGSEGV from a stack overflow) fails
the one test with its signal instead of ending the run."""
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import SAMPLES

# Python nesting refused past this (gamewire.open.MAX_JSON_DEPTH; O3DE: its own 1024).
LIMIT = 4096

PRELUDE = textwrap.dedent(
    f"""
    import json
    import sys
    import gamewire
    from gamewire import godot, kingsisle, o3de, resonite, zeze

    TYPES = {str(SAMPLES / "kingsisle" / "types.json")!r}
    ITEM = {str(SAMPLES / "kingsisle" / "item.bin")!r}
    GODOT = {str(SAMPLES / "godot" / "save.godot3.bin")!r}
    ZEZE = {str(SAMPLES / "zeze" / "BSimple.zeze")!r}
    RESONITE = {str(SAMPLES / "resonite" / "item.brson")!r}
    HEADER = json.loads(gamewire.open(GODOT).document())["$gamewire"]

    # Comparing values 1000 deep recurses in Python itself.
    sys.setrecursionlimit(10_000)

    def nest(n, kind):
        # Built iteratively: n containers, each the only item of the one before.
        top = cur = kind()
        for _ in range(n):
            new = kind()
            if isinstance(cur, dict):
                cur["k"] = new
            else:
                cur.append(new)
            cur = new
        return top

    class Selfish:
        def _gamewire_json(self):
            return self

    class Wrapped:
        # A fresh list holding the object itself, at every call.
        def _gamewire_json(self):
            return [self]

    def ki(value):
        return kingsisle.encode(kingsisle.Object("class WizItemTemplate", {{"m_x": value}}),
                                types=TYPES)

    ENCODERS = {{
        "godot": lambda v: godot.encode(v),
        "godot-framed": lambda v: godot.encode([v], framed=True),
        "kingsisle": ki,
        "kingsisle-lazy-nested": lambda v: kingsisle.encode(
            kingsisle.Object("class WizItemTemplate", {{
                "m_lazy": kingsisle.decode(open(ITEM, "rb").read(), types=TYPES, lazy=True),
                "m_x": v}}), types=TYPES),
        "zeze": lambda v: zeze.encode(zeze.Bean({{1: v}})),
        "zeze-frames": lambda v: zeze.encode([v], frames=True),
        "resonite": lambda v: resonite.encode({{"a": v}}),
        "o3de": lambda v: o3de.encode({{"a": v}}),
        "File.encode-godot": lambda v: gamewire.open(GODOT).encode(v),
        "File.encode-kingsisle": lambda v: gamewire.open(ITEM).encode(v),
        "File.encode-zeze": lambda v: gamewire.open(ZEZE).encode(zeze.Bean({{1: v}})),
        "File.encode-resonite": lambda v: gamewire.open(RESONITE).encode({{"a": v}}),
        "File.encode_json": lambda v: gamewire.open(GODOT).encode_json(v),
        "gamewire.encode": lambda v: gamewire.encode(
            {{"$gamewire": HEADER, "data": v}}),
    }}

    def expect_value_error(name, value, *words):
        try:
            ENCODERS[name](value)
        except ValueError as e:
            msg = str(e)
            assert all(w in msg for w in words), (name, msg[:300], words)
            print("ValueError:", msg[:200])
        else:
            raise AssertionError(f"{{name}}: no error")
    """
)


def run(code, timeout=300):
    """Runs `code` after the prelude in a child interpreter; its stdout."""
    p = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ.copy(),
    )
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}"
    return p.stdout


ENCODERS = [
    "godot", "godot-framed", "kingsisle", "kingsisle-lazy-nested", "zeze", "zeze-frames",
    "resonite", "o3de", "File.encode-godot", "File.encode-kingsisle", "File.encode-zeze",
    "File.encode-resonite", "File.encode_json", "gamewire.encode",
]


def limit_words(name):
    return ("nested deeper than 1024 levels",) if name == "o3de" else (f"nested deeper than {LIMIT} levels",)


@pytest.mark.parametrize("name", ENCODERS)
def test_deep_lists_and_dicts(name):
    # 20,000 and 1,000,000 levels: refused at the limit, with the limit in the message.
    words = limit_words(name)
    out = run(
        f"""
        for n in (20_000, 1_000_000):
            for kind in (list, dict):
                expect_value_error({name!r}, nest(n, kind), *{words!r})
        print("done")
        """
    )
    assert out.count("ValueError:") == 4 and out.endswith("done\n")


@pytest.mark.parametrize("name", ENCODERS)
def test_values_containing_themselves(name):
    out = run(
        f"""
        a = []
        a.append(a)
        expect_value_error({name!r}, a, "contains itself")
        d = {{}}
        d["self"] = d
        expect_value_error({name!r}, d, "contains itself")
        # Deeper cycles: a list inside a dict inside the list.
        b = [1, 2]
        b.append({{"x": b}})
        expect_value_error({name!r}, b, "contains itself")
        print("done")
        """
    )
    assert out.count("ValueError:") == 3 and out.endswith("done\n")


@pytest.mark.parametrize("name", [n for n in ENCODERS if n != "o3de"])
def test_gamewire_json_giving_itself(name):
    # O3DE takes no `_gamewire_json` objects (a TypeError names the type).
    out = run(
        f"""
        expect_value_error({name!r}, Selfish(), "contains itself")
        expect_value_error({name!r}, [1, Selfish()], "contains itself")
        expect_value_error({name!r}, Wrapped(), "contains itself")
        b = zeze.Bean()
        b[1] = b
        expect_value_error({name!r}, b, "contains itself")
        print("done")
        """
    )
    assert out.count("ValueError:") == 4 and out.endswith("done\n")


def test_deep_values_below_the_limit_reach_the_format():
    # Up to the limit the value is converted (on a big stack) and the format's own depth
    # check answers, with its DecodeError; nothing crashes in a debug build either.
    out = run(
        f"""
        for name in ("godot", "zeze", "resonite", "File.encode-godot", "gamewire.encode"):
            for kind in (list, dict):
                try:
                    ENCODERS[name](nest({LIMIT} - 8, kind))
                except gamewire.DecodeError as e:
                    print("DecodeError", name)
        try:
            o3de.encode(nest(1000, list))
            print("o3de ok")
        except ValueError as e:
            print("o3de", e)
        print("done")
        """
    )
    assert out.count("DecodeError") == 10 and "o3de ok" in out and out.endswith("done\n")


def test_deep_values_encode_and_decode_at_the_engine_limit():
    # 1000 levels: Godot arrays, Resonite documents, Zeze beans and O3DE arrays round-trip,
    # their Python values built from the decoders (json=True too) without a crash.
    out = run(
        """
        n = 1000
        v = nest(n, list)
        data = godot.encode(v)
        assert godot.decode(data) == v and godot.decode(data, json=True) == v
        d = nest(n, dict)
        data = resonite.encode(d, compression="none")
        assert resonite.decode(data) == d and resonite.decode(data, json=True) == d
        bean = top = zeze.Bean()
        for _ in range(n - 2):
            inner = zeze.Bean()
            bean[1] = inner
            bean = inner
        data = zeze.encode(top)
        assert zeze.decode(data) == top
        assert zeze.encode(zeze.decode(data, json=True)) == data
        text = o3de.encode(v, compact=True)
        assert text == b"[" * (n + 1) + b"]" * (n + 1) and o3de.decode(text) == v
        print("done")
        """
    )
    assert out.endswith("done\n")


def test_godot_tagged_values_at_the_engine_limit():
    # A Godot Dictionary with int keys nested 1000 deep: three JSON levels per engine
    # level (the tagged object, its entries, a pair), 3000 JSON levels each way.
    out = run(
        """
        n = 1000
        v = "leaf"
        for i in range(n):
            v = godot.Dictionary(entries=[[1, v]])
        data = godot.encode(v)
        back = godot.decode(data)
        # (Comparing 1000 nested Dictionary objects recurses too deep in Python itself.)
        assert type(back) is godot.Dictionary and godot.encode(back) == data
        j = godot.decode(data, json=True)
        deepest, todo = 0, [(j, 1)]
        while todo:
            x, d = todo.pop()
            if isinstance(x, (dict, list)):
                deepest = max(deepest, d)
                todo.extend((y, d + 1) for y in (x.values() if isinstance(x, dict) else x))
        assert deepest >= 3 * n, deepest
        print("json levels", deepest)
        assert godot.encode(godot.decode(data, json=True)) == data
        print("done")
        """
    )
    assert out.endswith("done\n")


def test_zeze_inheritance_levels():
    # Each inheritance level (a 0x01 byte) nests one deeper, bounded like nesting (the
    # library's depth limit, 1024): 1,000 levels become nested bases, and 10,000 or a
    # million are a DecodeError naming the limit and the byte, never a stack overflow.
    out = run(
        """
        v = zeze.decode(b"\\x01" * 1_000 + b"\\x00", json=True)
        depth = 0
        while v:
            v = v["base"]
            depth += 1
        assert depth == 1_000, depth
        b = zeze.decode(b"\\x01" * 1_000 + b"\\x00")
        assert type(b) is zeze.Bean and type(b.base) is zeze.Bean
        for n in (10_000, 1_000_000):
            for kw in ({}, {"json": True}, {"frames": False}):
                try:
                    zeze.decode(b"\\x01" * n + b"\\x00", **kw)
                except gamewire.DecodeError as e:
                    assert "deeper than the limit of 1024" in str(e) and e.offset == 1023, e
                    print("DecodeError")
        print("done")
        """
    )
    assert out.count("DecodeError") == 6 and out.endswith("done\n")


# Zeze's memory bound (docs/FORMATS.md) is 64x for its own values; the Python values of
# empty beans alone take 72 bytes per input byte (a 64-byte dict and its list slot) with
# json=True and 88 as zeze.Bean, and the input is held meanwhile.
ZEZE_PEAK = {"json": 96, "beans": 112}


@pytest.mark.parametrize("mode", sorted(ZEZE_PEAK))
def test_zeze_empty_beans_memory(mode):
    # 4 MB of empty beans: a bean whose field 1 lists 4,000,000 empty beans (one byte
    # each). Through serde_json trees this took 1.3 GB (329x the input).
    out = run(
        f"""
        import resource
        n = 4_000_000
        # Field 1, a list of beans; its count; the empty beans; the end of the bean.
        data = bytes.fromhex("14f6e03d08f1") + bytes(n + 1)
        assert zeze.decode(bytes.fromhex("1436") + bytes(4)) == zeze.Bean(
            {{1: zeze.List([zeze.Bean()] * 3, "bean")}})
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        v = zeze.decode(data, json={mode == "json"})
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        items = v["1"]["items"] if {mode == "json"} else v[1]
        empty = {{}} if {mode == "json"} else zeze.Bean()
        assert len(items) == n and items[0] == empty and items[-1] == empty
        print("peak", (peak - before) / len(data))
        """
    )
    ratio = float(out.split("peak ")[1])
    assert ratio <= ZEZE_PEAK[mode], f"{mode}: {ratio:.1f}x the input"
