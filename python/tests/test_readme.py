"""Every Python block of python/README.md, README.md and docs/*.md runs as written, from the repository root, with the
`sudoku` binary on PATH (the RDD.pipe recipe looks it up there). Blocks that use Spark skip with the reason when
pyspark or Java is missing, like the Spark tests."""

import os
import re
import shutil

import pytest

from conftest import REPO, sudoku_bin

BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks():
    pages = ["python/README.md", "README.md"] + sorted(f"docs/{p.name}" for p in (REPO / "docs").glob("*.md"))
    for readme in pages:
        text = (REPO / readme).read_text()
        for code in BLOCK.findall(text):
            line = text[: text.index(code)].count("\n") + 1
            yield pytest.param(code, id=f"{readme}:{line}")


@pytest.mark.parametrize("code", list(blocks()))
def test_readme_block_runs_as_written(code, monkeypatch):
    uses_spark = "spark" in code
    if uses_spark:
        pytest.importorskip("pyspark", reason="pyspark is not installed (pip install './python[spark]')")
        if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
            pytest.skip("no Java: Spark needs a JVM (Java 17)")
    exe = sudoku_bin()
    if exe is not None:
        monkeypatch.setenv("PATH", os.path.dirname(os.path.abspath(exe)) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.chdir(REPO)
    try:
        exec(compile(code, "<README block>", "exec"), {"__name__": "__readme__"})
    finally:
        if uses_spark:
            from pyspark.sql import SparkSession

            active = SparkSession.getActiveSession()
            if active is not None:
                active.stop()
