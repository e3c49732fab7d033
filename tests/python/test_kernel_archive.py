"""The prebuilt kernel archive and the CUDA library search order as show_config reports
them (docs/install.md). Each check runs in a fresh process: the archive is opened and the
libraries are loaded once per process."""
import glob
import os
import subprocess
import sys

import pytest

import cunp
from conftest import needs_cuda


def _run(code, **env):
    full = dict(os.environ)
    for k, v in env.items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = v
    r = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _config_line(out, key):
    for line in out.splitlines():
        if line.startswith(key):
            return line.split(" : ", 1)[1]
    raise AssertionError(f"{key!r} not in show_config:\n{out}")


def test_show_config_reports_archive_cache_and_library_origins(capsys):
    cunp.show_config()
    out = capsys.readouterr().out
    for key in ("Kernel Archive", "Kernel Cache", "NVRTC Library", "cuBLASLt Version", "nvJitLink Version"):
        assert key in out
    assert "NVRTC compiles" in _config_line(out, "Kernel Cache")
    nvrtc = _config_line(out, "NVRTC Library")
    if not nvrtc.startswith("not found"):
        steps = ("CUNP_CUDA_PATH", "CUDA_PATH", "NVIDIA wheel", "system loader", "build toolkit", "already loaded")
        assert any(s in nvrtc for s in steps), nvrtc
    stats = cunp._core._kernel_cache_stats()
    assert set(stats) == {"nvrtc_compiles", "archive_hits", "disk_hits", "archive"}
    assert all(isinstance(stats[k], int) and stats[k] >= 0 for k in ("nvrtc_compiles", "archive_hits", "disk_hits"))


def test_archive_can_be_disabled_or_pointed_elsewhere(tmp_path):
    code = "import cunp; print(cunp._core._kernel_cache_stats()['archive'])"
    assert _run(code, CUNP_KERNEL_ARCHIVE="0").strip() == "disabled (CUNP_KERNEL_ARCHIVE)"
    missing = tmp_path / "none.bin"
    assert _run(code, CUNP_KERNEL_ARCHIVE=str(missing)).strip() == f"not found ({missing})"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"x" * 4096)
    assert _run(code, CUNP_KERNEL_ARCHIVE=str(junk)).strip().startswith("not a kernel archive")


def test_libraries_found_in_nvidia_wheel_directories(tmp_path):
    # A site directory laid out like NVIDIA's wheels (nvidia/<name>/lib), its cuRAND a link
    # to the toolkit's file: found there, after CUNP_CUDA_PATH/CUDA_PATH and the build
    # toolkit (left out here, as on a machine the wheel was not built on), before the loader.
    files = sorted(glob.glob("/usr/local/cuda/lib*/libcurand.so.*[0-9]"))
    if not files:
        pytest.skip("no toolkit cuRAND to lay out")
    soname = os.path.basename(files[0])
    soname = soname[: soname.index(".so.") + 4] + soname[soname.index(".so.") + 4:].split(".")[0]
    lib = tmp_path / "site" / "nvidia" / "curand" / "lib"
    lib.mkdir(parents=True)
    os.symlink(os.path.realpath(files[0]), lib / soname)
    code = "import cunp; cunp.show_config()"
    path = os.pathsep.join([str(tmp_path / "site"), os.environ.get("PYTHONPATH", "")])
    out = _run(code, PYTHONPATH=path, CUNP_CUDA_PATH=None, CUDA_PATH=None, CUNP_IGNORE_BUILD_TOOLKIT="1")
    assert "NVIDIA wheel" in _config_line(out, "cuRAND Version"), out
    # CUNP_CUDA_PATH comes first.
    root = tmp_path / "cuda"
    (root / "lib64").mkdir(parents=True)
    os.symlink(os.path.realpath(files[0]), root / "lib64" / soname)
    out = _run(code, PYTHONPATH=path, CUNP_CUDA_PATH=str(root), CUDA_PATH=None, CUNP_IGNORE_BUILD_TOOLKIT="1")
    assert "CUNP_CUDA_PATH" in _config_line(out, "cuRAND Version"), out


@needs_cuda
def test_fresh_process_runs_builtin_ops_without_nvrtc(tmp_path):
    # With a kernel archive for this GPU (-DCUNP_KERNEL_ARCHIVE_ARCHS=...) and an empty
    # writable cache, built-in operations compile nothing.
    status = cunp._core._kernel_cache_stats()["archive"]
    if status.startswith(("not found", "disabled", "ignored", "not a", "damaged", "too short", "truncated")):
        pytest.skip(f"no kernel archive: {status}")
    code = (
        "import cunp\n"
        "a = cunp.arange(10)\n"
        "assert (a + 1).sum().item() == 55\n"
        "x = cunp.linspace(0, 1, 1000, dtype=cunp.float32)\n"
        "float(cunp.sin(x).max()); float((x * 2.0).mean()); x.astype(cunp.float64).std()\n"
        "cunp.cuda.Device().synchronize()\n"
        "s = cunp._core._kernel_cache_stats()\n"
        "print(s['nvrtc_compiles'], s['archive_hits'])\n"
    )
    env = dict(os.environ, CUNP_CACHE_DIR=str(tmp_path / "cache"), CUNP_KERNEL_TRACE="1")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    compiles, hits = map(int, r.stdout.split())
    compiled = [line for line in r.stderr.splitlines() if "compiled" in line]
    assert compiles == 0, "compiled by NVRTC:\n" + "\n".join(compiled)
    assert hits > 0
