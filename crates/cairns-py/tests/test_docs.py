"""The Python examples of README.md and docs/python.md, and the package's
doctests, run as written (from the repository root, where their relative
paths to ../shared point)."""

import doctest
import os
import re

import pytest

import cairns_path
from conftest import REPO


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


@pytest.mark.parametrize("doc", ["README.md", "docs/python.md"])
def test_the_python_examples_of_the_docs_run(doc, movingai, monkeypatch, capsys):
    blocks = python_blocks(REPO / doc)
    assert blocks, f"{doc} has no python example"
    monkeypatch.chdir(REPO)
    namespace = {}
    for block in blocks:
        exec(compile(block, doc, "exec"), namespace)
    if doc == "README.md":
        assert capsys.readouterr().out.startswith("cost 355.362 in ")


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
