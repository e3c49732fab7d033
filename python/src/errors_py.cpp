// python/src/errors_py.cpp — C++ exceptions to Python exceptions, one to one.
#include <Python.h>

#include "convert.hpp"
#include "cunp/nccl.hpp"

namespace cunp::py {

void bind_errors(nb::module_& m) {
  static nb::handle cuda_error = (PyErr_NewExceptionWithDoc(
      "cunp._core.CUDARuntimeError", "A CUDA runtime or library call failed.", PyExc_RuntimeError, nullptr));
  static nb::handle oom = (PyErr_NewExceptionWithDoc(
      "cunp._core.OutOfMemoryError", "Device or pinned memory is exhausted.", PyExc_MemoryError, nullptr));
  static nb::handle compile_error = (PyErr_NewExceptionWithDoc(
      "cunp._core.CompileException", "NVRTC rejected CUDA source; the message holds its log.", PyExc_Exception,
      nullptr));
  // cupy.cuda.nccl.NcclError is a RuntimeError; here also a CUDARuntimeError, as in C++.
  static nb::handle nccl_error = (PyErr_NewExceptionWithDoc(
      "cunp._core.NcclError", "An NCCL call failed; the message is NCCL's.", cuda_error.ptr(), nullptr));
  m.attr("CUDARuntimeError") = cuda_error;
  m.attr("NcclError") = nccl_error;
  m.attr("OutOfMemoryError") = oom;
  m.attr("CompileException") = compile_error;
  static nb::handle axis_error = nb::object(numpy().attr("exceptions").attr("AxisError")).release();
  static nb::handle linalg_error = nb::object(nb::module_::import_("numpy.linalg").attr("LinAlgError")).release();
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const AxisError& e) {
      PyErr_SetObject(axis_error.ptr(), nb::str(e.what()).ptr());
    } catch (const LinAlgError& e) {
      PyErr_SetString(linalg_error.ptr(), e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const AttributeError& e) {
      PyErr_SetString(PyExc_AttributeError, e.what());
    } catch (const ZeroDivisionError& e) {
      PyErr_SetString(PyExc_ZeroDivisionError, e.what());
    } catch (const NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const FloatingPointError& e) {
      PyErr_SetString(PyExc_FloatingPointError, e.what());
    } catch (const BufferError& e) {
      PyErr_SetString(PyExc_BufferError, e.what());
    } catch (const FileNotFoundError& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    } catch (const OutOfMemoryError& e) {
      PyErr_SetString(oom.ptr(), e.what());
    } catch (const cuda::nccl::NcclError& e) {
      PyErr_SetString(nccl_error.ptr(), e.what());
    } catch (const CudaError& e) {
      PyErr_SetString(cuda_error.ptr(), e.what());
    } catch (const CompileError& e) {
      PyErr_SetString(compile_error.ptr(), e.what());
    }
  });
}

}  // namespace cunp::py
