"""Batch work at any scale: stream a file of puzzles through solve, count, rate or explain (or
generate many puzzles), on this process, on every local core or on a Dask cluster, into JSON
lines, CSV or Parquet, resumable after a kill. docs/batch.md tells how to use it."""

from __future__ import annotations

from .output import check_output, form_of, work_folder, write_output
from .runner import CHUNK, Job, run_job
from .source import count_lines, read_items
from .summary import Summary
from .tasks import COMMANDS, FIELDS, Item, Spec, run_chunk

__all__ = [
    "CHUNK",
    "COMMANDS",
    "FIELDS",
    "Item",
    "Job",
    "Spec",
    "Summary",
    "check_output",
    "count_lines",
    "form_of",
    "read_items",
    "run_chunk",
    "run_job",
    "work_folder",
    "write_output",
]
