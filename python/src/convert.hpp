// python/src/convert.hpp — conversions between Python objects and cunp's C++ types,
// shared by the binding files.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>

#include "cunp/cunp.hpp"

namespace nb = nanobind;

namespace cunp::py {

// numpy.dtype(obj) -> DType; TypeError for dtypes cunp lacks.
DType to_dtype(nb::handle obj);
std::optional<DType> to_optional_dtype(nb::handle obj);  // None -> nullopt
// The numpy.dtype object of a DType (cached).
nb::object dtype_object(DType dt);
// A Python bool/int/float/complex (weak), a NumPy scalar (strong), or a 0-d array.
Scalar to_scalar(nb::handle obj);
bool is_python_scalar(nb::handle obj);
nb::object scalar_to_python(const Scalar& s);
// An int or a sequence of ints.
Shape to_shape(nb::handle obj);
nb::tuple shape_to_tuple(const Shape& shape);
std::optional<Device> to_optional_device(nb::handle obj);  // None, "cpu", "cuda:1", Device objects, ints
Order to_order(nb::handle obj, Order dflt);
// The numpy module (imported once).
nb::module_& numpy();
// Any array-like value (a cunp array as it is; anything else through numpy.asarray) as
// a cunp array on `device`, optionally of `dtype` (ndarray_py.cpp).
ndarray as_cunp_array(nb::handle value, Device device, std::optional<DType> dtype);
// An operand of a ufunc or a distribution parameter: Python and NumPy scalars stay
// scalars, cunp arrays are used in place, other array-likes are uploaded to `device`.
Operand to_operand(nb::handle h, Device device);
// An `axis` argument of the reductions: None (every axis), an int, or a sequence of ints.
inline Axes to_axes(nb::handle h) {
  if (h.is_none()) return {};
  if (PySequence_Check(h.ptr())) {
    std::vector<int> v;
    for (nb::handle x : h) v.push_back(nb::cast<int>(nb::int_(x)));
    return Axes(std::move(v));
  }
  if (!PyIndex_Check(h.ptr())) throw TypeError("an integer is required for the axis");
  return Axes(nb::cast<int>(nb::int_(h)));
}

// Binding files that are not listed in module.cpp register themselves:
//   void bind_fft(nb::module_& m) { ... }
//   CUNP_PY_BINDINGS(bind_fft);
// module.cpp runs them after its own bindings, in registration order.
using Binder = void (*)(nb::module_&);
int register_binder(Binder binder);
#define CUNP_PY_BINDINGS(fn) [[maybe_unused]] static const int cunp_binder_##fn = ::cunp::py::register_binder(&fn)

void bind_errors(nb::module_& m);
void bind_dtypes(nb::module_& m);
void bind_ndarray(nb::module_& m);
void bind_creation(nb::module_& m);
void bind_cuda(nb::module_& m);
void bind_ufuncs(nb::module_& m);  // after bind_ndarray
void bind_manipulation(nb::module_& m);

}  // namespace cunp::py
