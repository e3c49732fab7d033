"""The vector updates of the Krylov solvers, fused into one kernel each on CUDA devices.

Note [Fused Krylov updates]: an iteration of cg reads and writes its vectors in three
updates (p = z + beta p; x += alpha p; r -= alpha q). As separate cunp operations these
are seven passes over memory with two temporaries (alpha * p is materialised before the
addition); as ElementwiseKernels they are two passes that read each vector once and
write in place. The Krylov solvers are bandwidth bound, so this is most of the time an
iteration spends outside the matrix product. The scalars (alpha, beta) stay 0-d device
arrays broadcast into the kernel, so no update waits for the host. On the cpu device
(ElementwiseKernel needs CUDA) the same updates run as in-place cunp operations.
"""
import cunp as _cunp

_KERNELS = {}


def _kernel(name, in_params, out_params, body):
    k = _KERNELS.get(name)
    if k is None:
        k = _KERNELS[name] = _cunp.ElementwiseKernel(in_params, out_params, body, "cunpx_sparse_" + name)
    return k


def _on_cuda(a):
    return a.device.type != "cpu"


def _axpy2_kernel():
    """x += alpha * p; r -= alpha * q."""
    return _kernel("axpy2", "T alpha, T p, T q", "T x, T r", "x = x + alpha * p; r = r - alpha * q")


def _xpby_kernel():
    """p = z + beta * p."""
    return _kernel("xpby", "T z, T beta", "T p", "p = z + beta * p")


def _axpy_kernel():
    """y += alpha * x."""
    return _kernel("axpy", "T alpha, T x", "T y", "y = y + alpha * x")


def axpy2(alpha, p, q, x, r):
    """x += alpha p and r -= alpha q, in place (alpha: a 0-d array of their dtype)."""
    if _on_cuda(x):
        _axpy2_kernel()(alpha, p, q, x, r)
    else:
        x += alpha * p
        r -= alpha * q


def xpby(z, beta, p):
    """p = z + beta p, in place."""
    if _on_cuda(p):
        _xpby_kernel()(z, beta, p)
    else:
        p *= beta
        p += z


def axpy(alpha, x, y):
    """y += alpha x, in place."""
    if _on_cuda(y):
        _axpy_kernel()(alpha, x, y)
    else:
        y += alpha * x


def kernels():
    """Every kernel this module launches (for the compile test that CI runs without a GPU)."""
    return [_axpy2_kernel(), _xpby_kernel(), _axpy_kernel()]
