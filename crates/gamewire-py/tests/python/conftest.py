"""Paths shared by the format tests."""
import os
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[4]
FIXTURES = pathlib.Path(os.environ.get("GAMEWIRE_FIXTURES", REPO / ".." / "shared" / "fixtures"))
SAMPLES = REPO / "samples"
