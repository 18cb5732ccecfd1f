"""gamewire on Dask (docs/SCALING.md): values pickle, and the documented recipe, run as
written on a ``distributed.LocalCluster`` of two worker processes over 1,000 files of
every format, writes the same JSON as the same functions in this one process.
dask and distributed are skipped when absent, required under GAMEWIRE_REQUIRE_PEERS=1."""
import os
import pickle
import shutil

import pytest

import gamewire
from conftest import REPO, SAMPLES

SIDE = {"types.json", "zeze-solution.xml", "o3de-registry.json"}


def peer(module, pip):
    if os.environ.get("GAMEWIRE_REQUIRE_PEERS") == "1":
        return __import__(module, fromlist=["_"])
    return pytest.importorskip(module, reason=f"{module} not installed (pip install {pip})")


def sample_files():
    out = sorted(p for p in SAMPLES.rglob("*")
                 if p.is_file() and p.suffix != ".md" and p.name not in SIDE)
    assert len({p.suffix for p in out}) >= 8, out
    return out


def recipe():
    """The first Python block of docs/SCALING.md's Dask section, run as a script's
    ``__main__`` (so Dask pickles its functions by value, as it would a user's script)."""
    text = (REPO / "docs" / "SCALING.md").read_text(encoding="utf-8")
    section = text[text.index("## Python on Dask"):]
    start = section.index("```python\n") + len("```python\n")
    code = section[start:section.index("```", start)]
    ns = {"__name__": "__main__"}
    exec(compile(code, "docs/SCALING.md", "exec"), ns)
    return ns


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_values_pickle(path):
    for json in (False, True):
        value = gamewire.load(path, json=json)
        assert pickle.loads(pickle.dumps(value)) == value


def test_recipe_on_local_cluster_matches_one_process(tmp_path):
    peer("dask", "dask")
    distributed = peer("distributed", "distributed")
    # 1,000 files: copies of every sample, each folder with the side files they read.
    root = tmp_path / "in"
    files = sample_files()
    sides = [p for p in SAMPLES.rglob("*") if p.name in SIDE]
    copies = -(-1000 // len(files))
    for c in range(copies):
        d = root / f"c{c:03}"
        d.mkdir(parents=True)
        for p in sides + files:
            shutil.copy(p, d / p.name)
    ns = recipe()
    paths = ns["files_under"](root)
    extra = paths[1000:]
    for p in extra:
        os.unlink(p)
    paths = paths[:1000]
    assert ns["files_under"](root) == paths
    assert len({os.path.splitext(p)[1] for p in paths}) >= 8

    # One process: the recipe's function called in a loop.
    local_out = tmp_path / "local"
    want = sorted((ns["convert_one"](p, str(root), str(local_out)) for p in paths),
                  key=lambda r: r["path"])
    assert not [r for r in want if "error" in r], [r for r in want if "error" in r][:3]

    dask_out = tmp_path / "dask"
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        got = ns["convert_folder"](str(root), str(dask_out), partitions=8)
        # The work ran in the two worker processes, not here.
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids
        # Values (typed classes included) come back to the client pickled.
        one = [p for p in paths if os.path.basename(os.path.dirname(p)) == "c000"]
        values = client.gather(client.map(gamewire.load, one))
    assert values == [gamewire.load(p) for p in one]

    assert got == want
    written = sorted(str(p.relative_to(dask_out)) for p in dask_out.rglob("*") if p.is_file())
    assert written == sorted(r["path"] + ".json" for r in want)
    for r in want:
        name = r["path"] + ".json"
        assert (dask_out / name).read_bytes() == (local_out / name).read_bytes(), name
