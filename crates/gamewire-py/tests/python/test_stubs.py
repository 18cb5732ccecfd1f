"""The type stubs ship with the package, name what the modules have, and document every
function and class they declare."""
import ast
import importlib
import pathlib

import pytest

import gamewire

PACKAGE = pathlib.Path(gamewire.__file__).parent
STUBS = sorted(PACKAGE.glob("*.pyi"))


def test_stubs_ship():
    assert (PACKAGE / "py.typed").exists()
    assert {p.stem for p in STUBS} >= {"__init__", "godot", "kingsisle", "o3de", "resonite", "zeze"}


@pytest.mark.parametrize("stub", STUBS, ids=lambda p: p.name)
def test_stub_functions_exist_and_have_docstrings(stub):
    module = importlib.import_module("gamewire" if stub.stem == "__init__" else f"gamewire.{stub.stem}")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            assert hasattr(module, node.name), f"{stub.name}: {node.name} is not in the module"
            assert ast.get_docstring(node), f"{stub.name}: {node.name} has no docstring"
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            if any(isinstance(b, ast.Name) and b.id == "TypedDict" for b in node.bases):
                continue  # a shape of returned dicts, for the type checker only
            assert hasattr(module, node.name), f"{stub.name}: class {node.name} is not in the module"
