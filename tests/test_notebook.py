"""docs/notebook.ipynb, the tour of the library, runs from top to bottom without an error."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="running the notebook needs nbformat")
nbclient = pytest.importorskip("nbclient", reason="running the notebook needs nbclient")
pytest.importorskip("ipykernel", reason="running the notebook needs an ipykernel")

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "notebook.ipynb"


def test_notebook_is_stored_without_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)


def test_notebook_runs_and_draws() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as exc:  # the failing cell and its traceback
        pytest.fail(str(exc))
    outputs = [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    rich = [out.data for out in outputs if out.output_type in ("execute_result", "display_data")]
    svgs = [data["image/svg+xml"] for data in rich if "image/svg+xml" in data]
    html = [data["text/html"] for data in rich if "text/html" in data]
    # the puzzle, its solution, the 4x4 X puzzle, the drawn steps and the new puzzle are pictures
    assert len(svgs) >= 6 and all("<svg" in svg for svg in svgs)
    # the explanation shows itself as HTML with its hardest step drawn
    assert html and any("<svg" in page for page in html)
    text = "".join(out.get("text", "") for out in outputs) + "".join(
        data.get("text/plain", "") for data in rich
    )
    assert "'unique'" in text
    assert "Locked candidates (pointing)" in text
