"""`import cunp` maps the CUDA runtime only: cuBLAS, cuSOLVER, cuFFT and NVRTC are loaded
on first use (src/runtime/vendor_lib.hpp, Note [Lazy vendor libraries])."""
import os
import subprocess
import sys

import pytest

# Mapping these cost ~0.2 s of every import when libcunp linked them.
LAZY_LIBRARIES = ("libcublas", "libcusolver", "libcufft", "libcusparse", "libnvrtc", "libnvJitLink")

MAPPED_AFTER_IMPORT = (
    "import cunp\n"
    "print('\\n'.join(sorted({l.split()[-1] for l in open('/proc/self/maps') if '.so' in l})))\n")


def mapped_after(code):
    # A fresh interpreter: this one has run other tests that may have loaded them.
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ)).stdout
    return [os.path.basename(p) for p in out.split()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_import_maps_no_vendor_library():
    mapped = mapped_after(MAPPED_AFTER_IMPORT)
    assert any(m.startswith("libcunp") for m in mapped), mapped  # the maps were read
    assert [m for m in mapped if m.startswith(LAZY_LIBRARIES)] == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_cpu_linalg_and_fft_load_no_vendor_library():
    # The cpu device's backends (OpenBLAS/LAPACKE, the cpu FFT) never touch the CUDA libraries.
    code = ("import cunp\n"
            "a = cunp.asarray([[2.0, 1.0], [1.0, 3.0]], device='cpu')\n"
            "cunp.linalg.inv(a); cunp.matmul(a, a); cunp.fft.fft(a)\n") + MAPPED_AFTER_IMPORT
    mapped = mapped_after(code)
    assert [m for m in mapped if m.startswith(LAZY_LIBRARIES)] == []
