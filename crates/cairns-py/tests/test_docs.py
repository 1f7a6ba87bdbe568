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
