"""docs/lab.ipynb runs from top to bottom, and what it shows is what the lab computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from talespin.lab.scene import analyse_scene
from talespin.lab.scene_spec import parse_scene
from talespin.lab.variants import compare
from talespin.systems.inciting_incident import load_rules

nbformat = pytest.importorskip("nbformat", reason="the notebook test needs the test group (nbformat)")
nbclient = pytest.importorskip("nbclient", reason="the notebook test needs the test group (nbclient)")

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "lab.ipynb"


def test_the_lab_notebook_executes_and_shows_the_lab_results(tmp_path: Path) -> None:
    """Every cell runs without error; the tables are HTML; the printed figures equal the lab's own."""
    book = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        book, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(html) >= 3 and all("<table>" in h for h in html)
    assert any("image/png" in o.get("data", {}) for o in outputs)
    printed = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")
    variants = {"shipped": {}, "auto 5": {"crisis": {"auto": 5}}}
    changed = compare(variants, max_base=9, max_net=10).changed_choices("auto 5")
    assert f"now chooses differently: {changed}" in printed
    scene_cell = next(c.source for c in book.cells if "SCENE = {" in c.source)
    namespace: dict = {}
    exec(scene_cell.split("scenes =")[0], namespace)  # the notebook's own scene definition
    for name, overrides in variants.items():
        rules = load_rules(overrides or None)
        analysis = analyse_scene(parse_scene(namespace["SCENE"], rules), rules, policy="optimal")
        assert f"{name}: E[Crisis] {analysis.expected_crisis:.4f}" in printed
