"""The README's examples run, so they cannot rot."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _blocks(lang):
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```%s\n(.*?)```" % lang, text, flags=re.S)


def test_readme_python_quickstart_runs(capsys):
    blocks = _blocks("python")
    assert blocks, "README has no python example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})
    assert "CUDA Runtime Version" in capsys.readouterr().out


def test_readme_cpp_quickstart_is_the_built_example():
    blocks = _blocks("cpp")
    assert blocks, "README has no C++ example"
    example = (ROOT / "examples" / "quickstart.cpp").read_text()
    assert blocks[0].strip() == example.strip()
