"""The README's Python example runs as written (from the repository root)."""
from conftest import REPO


def test_readme_example(monkeypatch, capsys):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Use from Python"):]
    start = section.index("```python\n") + len("```python\n")
    code = section[start:section.index("```", start)]
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "godot4" in out and "class SampleItem" in out
