"""Paths shared by the format tests: everything they read is in the repository."""
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[4]
FIXTURES = REPO / "tests" / "fixtures"
SAMPLES = REPO / "samples"

# A missing fixture folder fails the run here, instead of leaving an empty parameter list
# that pytest would skip without a word.
for _folder in (FIXTURES / "godot" / "vectors", FIXTURES / "kingsisle" / "katsuba", FIXTURES / "zeze" / "vectors"):
    assert _folder.is_dir(), f"fixture folder missing: {_folder}"
