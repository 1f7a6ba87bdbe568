"""The Python examples of README.md, docs/python.md and the package's own
README, and the package's doctests, run as written (from the repository
root, where their relative paths to ../shared point).

Every ```python block of those files runs, in order, in one namespace per
file whose `__name__` is "__main__" (so a block guarded by `if __name__ ==
"__main__":`, as a Dask or multiprocessing example must be, runs too). The
one way to leave a block out is an HTML comment `<!-- not run: REASON -->`
on the line right before it, which the test honours and reports."""

import doctest
import re

import pytest

import cairns_path
from conftest import REPO

DOCS = ["README.md", "docs/python.md", "crates/cairns-py/README.md"]

# A fenced python block, with the line before it (for the marker).
BLOCK = re.compile(r"(?:^(?P<before>[^\n]*)\n)?^```python\n(?P<code>.*?)^```", re.S | re.M)
NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<reason>[^>]*?)\s*-->")


def python_blocks(path):
    """(code, reason it is not run or None) for each python block."""
    out = []
    for m in BLOCK.finditer(path.read_text()):
        marker = NOT_RUN.search(m.group("before") or "")
        out.append((m.group("code"), marker.group("reason") if marker else None))
    return out


def test_the_block_finder_sees_markers_and_blocks(tmp_path):
    text = "intro\n```python\nx = 1\n```\n<!-- not run: needs a GPU -->\n```python\ny = 2\n```\n"
    path = tmp_path / "sample.md"
    path.write_text(text)
    assert python_blocks(path) == [("x = 1\n", None), ("y = 2\n", "needs a GPU")]


@pytest.mark.parametrize("doc", DOCS)
def test_the_python_examples_of_the_docs_run(doc, movingai, monkeypatch, capsys):
    blocks = python_blocks(REPO / doc)
    assert blocks, f"{doc} has no python example"
    monkeypatch.chdir(REPO)
    namespace = {"__name__": "__main__"}
    skipped = []
    for k, (code, not_run) in enumerate(blocks):
        if not_run is not None:
            skipped.append(f"block {k + 1}: {not_run}")
            continue
        exec(compile(code, f"{doc}, python block {k + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    if doc in ("README.md", "crates/cairns-py/README.md"):
        assert out.startswith("cost 355.362 in "), out
    if doc == "docs/python.md":  # the Dask block ran, under its __main__ guard
        assert re.search(r"^\d+ queries checked, 4 engines back$", out, re.M), out
        assert re.search(r"^1000 x 1000 matrix, \d+ entries without a path$", out, re.M), out
    if skipped:
        print(f"{doc}: not run, as marked: {'; '.join(skipped)}")


def test_the_package_doctests_pass():
    failed, tried = doctest.testmod(cairns_path)
    assert tried > 0 and failed == 0


def test_the_native_docstrings_examples_pass():
    """The `>>>` examples in the classes' and functions' docstrings (which
    pyo3 takes from the Rust doc comments)."""
    import cairns_path._native as native

    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    tried = 0
    for name in native.__all__:
        obj = getattr(native, name)
        for test in finder.find(obj, name, module=False, globs={}):
            result = runner.run(test)
            tried += result.attempted
            assert result.failed == 0, name
    assert tried >= 10
