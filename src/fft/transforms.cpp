// src/fft/transforms.cpp — numpy.fft's transforms: argument rules, result dtypes,
// padding/truncation, the decomposition into plan-sized passes, normalization.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "copy/copy.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/fft.hpp"
#include "cunp/ufunc.hpp"
#include "fft/backend.hpp"
#include "fft/layout.hpp"

namespace cunp::fft {

using detail::Kind;

namespace {

// One 1-d transform of NumPy's sequence: along `axis`, of length `n`.
struct AxisLen {
  int axis;
  std::int64_t n;
};
using AxisLens = std::vector<AxisLen>;

bool single_precision(DType dt) {
  return dt == DType::Float16 || dt == DType::Float32 || dt == DType::Complex64;
}
// The dtypes transforms compute in (NumPy 2: single stays single).
DType compute_complex(DType dt) { return single_precision(dt) ? DType::Complex64 : DType::Complex128; }
DType compute_real(DType dt) { return single_precision(dt) ? DType::Float32 : DType::Float64; }
// NumPy's `result_type(a.real.dtype, 1.0)`: the dtype of the factor and of irfft results.
DType numpy_real_dtype(DType dt) {
  if (dt == DType::Float16) return DType::Float16;
  return compute_real(dt);
}

void check_n(std::int64_t n) {
  if (n < 1) throw ValueError("Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
}

double round_to(DType dt, double v) {
  if (dt == DType::Float16) return float16_to_float(float_to_float16(static_cast<float>(v)));
  if (dt == DType::Float32) return static_cast<float>(v);
  return v;
}

// NumPy's per-call factor: computed in the input's real dtype (so float16 input gets a
// float16-rounded factor, as in NumPy).
double norm_factor(Norm norm, bool forward, std::int64_t n, DType input) {
  if (!forward) norm = norm == Norm::Backward ? Norm::Forward : norm == Norm::Forward ? Norm::Backward : norm;
  const DType rt = numpy_real_dtype(input);
  const double nn = round_to(rt, static_cast<double>(n));
  if (norm == Norm::Ortho) return round_to(rt, 1.0 / round_to(rt, std::sqrt(nn)));
  if (norm == Norm::Forward) return round_to(rt, 1.0 / nn);
  return 1.0;
}

Norm swap_direction(Norm norm) {
  return norm == Norm::Backward ? Norm::Forward : norm == Norm::Forward ? Norm::Backward : Norm::Ortho;
}

std::vector<int> axes_of(const AxisLens& lens) {
  std::vector<int> axes;
  for (const AxisLen& l : lens) axes.push_back(l.axis);
  return axes;
}

bool fits(const ndarray& a, DType dt, const AxisLens& lens) {
  if (a.dtype() != dt) return false;
  for (const AxisLen& l : lens)
    if (a.shape()[static_cast<std::size_t>(l.axis)] != l.n) return false;
  return true;
}

// A copy of `a` cast to `dt`, zero-padded or truncated to the lengths, in memory with
// those axes last.
ndarray resized_copy(const ndarray& a, DType dt, const AxisLens& lens) {
  Shape shape = a.shape();
  std::vector<Index> src_index(shape.size(), Index(slice())), dst_index(shape.size(), Index(slice()));
  bool padded = false;
  for (const AxisLen& l : lens) {
    const std::size_t ax = static_cast<std::size_t>(l.axis);
    const std::int64_t keep = std::min(l.n, shape[ax]);
    padded = padded || l.n > shape[ax];
    shape[ax] = l.n;
    src_index[ax] = slice(0, keep);
    dst_index[ax] = slice(0, keep);
  }
  const std::vector<int> axes = axes_of(lens);
  ndarray dst = detail::empty_axes_last(shape, dt, a.device(), axes);
  if (padded) cunp::detail::fill_elements(dst, Scalar(0));
  cunp::detail::copy_elements(dst.view(dst_index), a.view(src_index));
  return dst;
}

// Splits NumPy's sequence of 1-d transforms into passes of distinct axes, each at most
// one plan's rank (the axes of a pass in ascending order, so that C-ordered data needs
// no transposition).
std::vector<AxisLens> split_passes(const AxisLens& lens) {
  std::vector<AxisLens> passes;
  for (const AxisLen& l : lens) {
    const bool repeat = !passes.empty() && std::any_of(passes.back().begin(), passes.back().end(),
                                                       [&](const AxisLen& p) { return p.axis == l.axis; });
    if (passes.empty() || repeat || static_cast<int>(passes.back().size()) == detail::kMaxPlanRank)
      passes.emplace_back();
    passes.back().push_back(l);
  }
  for (AxisLens& p : passes)
    std::sort(p.begin(), p.end(), [](const AxisLen& x, const AxisLen& y) { return x.axis < y.axis; });
  return passes;
}

// The result array: validates `out` (shape, dtype castable with same_kind, device).
void check_out(const std::optional<ndarray>& out, const Shape& shape, DType result, Device device,
               const char* name) {
  if (!out) return;
  if (out->shape() != shape) throw ValueError("output array has wrong shape.");
  if (!can_cast(result, out->dtype(), Casting::SameKind))
    throw TypeError(std::string("Cannot cast ufunc '") + name + "' output from dtype('" +
                    std::string(cunp::name(result)) + "') to dtype('" + std::string(cunp::name(out->dtype())) +
                    "') with casting rule 'same_kind'");
  if (out->device() != device)
    throw ValueError("output array is on " + out->device().str() + " but the input is on " + device.str());
  if (!out->writeable()) throw ValueError("output array is read-only");
}

// `out` when the last pass can write straight into it.
const ndarray* direct_out(const std::optional<ndarray>& out, DType dt, const ndarray& input) {
  if (out && out->dtype() == dt && !out->may_share_memory(input)) return &*out;
  return nullptr;
}

// Applies the complex 1-d transforms `lens` in order to `cur`.
ndarray c2c_sequence(ndarray cur, bool cur_private, DType cdt, const AxisLens& lens, bool forward,
                     const ndarray* final_out) {
  const std::vector<AxisLens> passes = split_passes(lens);
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const AxisLens& pass = passes[p];
    if (!fits(cur, cdt, pass)) {
      cur = resized_copy(cur, cdt, pass);
      cur_private = true;
    }
    const std::vector<int> axes = axes_of(pass);
    ndarray dst;
    if (p + 1 == passes.size() && final_out) dst = *final_out;
    else if (cur_private) dst = cur;
    else dst = detail::empty_axes_last(cur.shape(), cdt, cur.device(), axes);
    detail::run_pass(Kind::C2C, forward, cur, dst, axes, cur_private);
    cur = dst;
    cur_private = true;
  }
  return cur;
}

// Scales by `factor` in place, then hands the result to `out` when it is not there yet.
ndarray finish(ndarray result, double factor, const std::optional<ndarray>& out, DType result_dtype) {
  if (factor != 1.0) multiply(result, Operand(factor), {.out = {result}});
  if (out) {
    if (out->data() != result.data() || out->strides() != result.strides()) cunp::detail::copy_elements(*out, result);
    return *out;
  }
  if (result.dtype() != result_dtype) return result.astype(result_dtype);
  return result;
}

// The product of NumPy's per-call factors: the first call sees the input dtype, the
// later ones the complex intermediate.
double total_factor(Norm norm, const std::vector<bool>& forward, const AxisLens& lens, DType input, DType cdt) {
  double f = 1.0;
  for (std::size_t i = 0; i < lens.size(); ++i) f *= norm_factor(norm, forward[i], lens[i].n, i == 0 ? input : cdt);
  return f;
}

Shape shape_with(const Shape& shape, const AxisLens& lens) {
  Shape s = shape;
  for (const AxisLen& l : lens) s[static_cast<std::size_t>(l.axis)] = l.n;
  return s;
}

// ---- the three transform families over a NumPy sequence of 1-d calls

ndarray complex_transform(const ndarray& a, const AxisLens& lens, bool forward, Norm norm,
                          const std::optional<ndarray>& out, const char* name) {
  const DType cdt = compute_complex(a.dtype());
  const Shape shape = shape_with(a.shape(), lens);
  check_out(out, shape, cdt, a.device(), name);
  ndarray r = c2c_sequence(a, false, cdt, lens, forward, direct_out(out, cdt, a));
  return finish(r, total_factor(norm, std::vector<bool>(lens.size(), forward), lens, a.dtype(), cdt), out, cdt);
}

// rfft along lens[0], then forward complex transforms along the rest.
ndarray real_forward(const ndarray& a, const AxisLens& lens, Norm norm, const std::optional<ndarray>& out,
                     const char* name) {
  if (is_complex(a.dtype()))
    throw TypeError(std::string("ufunc '") + name + "' not supported for the input types (" +
                    std::string(cunp::name(a.dtype())) + "): the input must be real");
  const DType rdt = compute_real(a.dtype()), cdt = compute_complex(a.dtype());
  const AxisLen first = lens.front();
  AxisLens half = lens;
  half.front().n = first.n / 2 + 1;
  // NumPy's shape sequence: after the rfft the axis has n/2+1, later calls resize.
  Shape shape = shape_with(a.shape(), {half.front()});
  for (std::size_t i = 1; i < lens.size(); ++i) shape[static_cast<std::size_t>(lens[i].axis)] = lens[i].n;
  check_out(out, shape, cdt, a.device(), name);

  ndarray src = a;
  bool src_private = false;
  if (!fits(a, rdt, {first})) {
    src = resized_copy(a, rdt, {first});
    src_private = true;
  }
  const int axis[1] = {first.axis};
  const ndarray* direct = direct_out(out, cdt, a);
  ndarray dst = lens.size() == 1 && direct ? *direct
                                           : detail::empty_axes_last(shape_with(a.shape(), {half.front()}), cdt,
                                                                     a.device(), axis);
  detail::run_pass(Kind::R2C, true, src, dst, axis, src_private);
  const AxisLens rest(lens.begin() + 1, lens.end());
  if (!rest.empty()) dst = c2c_sequence(dst, true, cdt, rest, true, direct);
  return finish(dst, total_factor(norm, std::vector<bool>(lens.size(), true), lens, a.dtype(), cdt), out, cdt);
}

// Inverse complex transforms along lens[:-1], then irfft along the last (n: the real
// output length).
ndarray real_inverse(const ndarray& a, const AxisLens& lens, Norm norm, const std::optional<ndarray>& out,
                     const char* name) {
  const DType cdt = compute_complex(a.dtype()), rdt = compute_real(a.dtype());
  const AxisLen last = lens.back();
  const AxisLens rest(lens.begin(), lens.end() - 1);
  // NumPy's irfftn runs ifft on the other axes first: float16 input is complex64 by the
  // time the last irfft runs, so only a lone irfft of float16 gives float16.
  const DType result_dtype = rest.empty() ? numpy_real_dtype(a.dtype()) : rdt;
  const Shape shape = shape_with(shape_with(a.shape(), rest), {last});
  check_out(out, shape, result_dtype, a.device(), name);

  ndarray cur = a;
  bool cur_private = false;
  if (!rest.empty()) {
    cur = c2c_sequence(a, false, cdt, rest, false, nullptr);
    cur_private = true;
  }
  const AxisLen half{last.axis, last.n / 2 + 1};
  if (!cur_private || !fits(cur, cdt, {half})) cur = resized_copy(cur, cdt, {half});
  // Note [irfft ignores imaginary DC/Nyquist]: NumPy (pocketfft) drops the imaginary
  // parts of the zero-frequency term and, for even n, of the Nyquist term; cuFFT's C2R
  // leaves them undefined for non-Hermitian input, so both backends clear them first.
  {
    std::vector<Index> at(static_cast<std::size_t>(cur.ndim()), Index(slice()));
    at[static_cast<std::size_t>(last.axis)] = std::int64_t{0};
    cunp::detail::fill_elements(imag(cur.view(at)), Scalar(0.0));
    if (last.n % 2 == 0 && last.n / 2 < half.n) {
      at[static_cast<std::size_t>(last.axis)] = last.n / 2;
      cunp::detail::fill_elements(imag(cur.view(at)), Scalar(0.0));
    }
  }
  const int axis[1] = {last.axis};
  const ndarray* direct = direct_out(out, rdt, a);
  ndarray dst = direct ? *direct : detail::empty_axes_last(shape, rdt, a.device(), axis);
  detail::run_pass(Kind::C2R, false, cur, dst, axis, true);
  return finish(dst, total_factor(norm, std::vector<bool>(lens.size(), false), lens, a.dtype(), cdt), out,
                result_dtype);
}

// ---- argument rules

AxisLens one_axis(const ndarray& a, const FftOptions& o, bool inverse_real) {
  const int axis = normalize_axis(o.axis, a.ndim());
  std::int64_t n = o.n ? *o.n : a.shape()[static_cast<std::size_t>(axis)];
  if (!o.n && inverse_real) n = (n - 1) * 2;
  check_n(n);
  return {{axis, n}};
}

// NumPy's _cook_nd_args; the result is in axes order (the caller reverses it where
// NumPy iterates backwards).
AxisLens cook_nd(const ndarray& a, const FftnOptions& o, bool inverse_real, std::vector<int> default_axes = {}) {
  const int ndim = a.ndim();
  std::vector<int> axes;
  if (o.axes) axes = *o.axes;
  else if (!default_axes.empty()) axes = default_axes;
  const bool have_axes = o.axes || !default_axes.empty();
  for (int& ax : axes) ax = normalize_axis(ax, ndim);
  std::vector<std::int64_t> s;
  const bool shapeless = !o.s;
  if (shapeless) {
    if (have_axes)
      for (int ax : axes) s.push_back(a.shape()[static_cast<std::size_t>(ax)]);
    else
      s = a.shape();
  } else {
    s = *o.s;
  }
  if (!have_axes) {
    const int k = static_cast<int>(s.size());
    if (k > ndim) throw AxisError(-k, ndim);
    for (int i = 0; i < k; ++i) axes.push_back(ndim - k + i);
  }
  if (s.size() != axes.size()) throw ValueError("Shape and axes have different lengths.");
  if (inverse_real && shapeless && !s.empty()) s.back() = (a.shape()[static_cast<std::size_t>(axes.back())] - 1) * 2;
  AxisLens lens;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::int64_t n = s[i] == -1 ? a.shape()[static_cast<std::size_t>(axes[i])] : s[i];
    check_n(n);
    lens.push_back({axes[i], n});
  }
  return lens;
}

AxisLens reversed(AxisLens lens) {
  std::reverse(lens.begin(), lens.end());
  return lens;
}

ndarray complex_nd(const ndarray& a, const FftnOptions& o, bool forward, std::vector<int> default_axes,
                   const char* name) {
  const AxisLens lens = cook_nd(a, o, false, std::move(default_axes));
  if (lens.empty()) return a;  // NumPy returns the input itself
  return complex_transform(a, reversed(lens), forward, o.norm, o.out, name);
}

ndarray real_forward_nd(const ndarray& a, const FftnOptions& o, std::vector<int> default_axes) {
  const AxisLens lens = cook_nd(a, o, false, std::move(default_axes));
  if (lens.empty()) throw IndexError("rfftn needs at least one axis to transform");
  return real_forward(a, reversed(lens), o.norm, o.out, "rfftn");
}

ndarray real_inverse_nd(const ndarray& a, const FftnOptions& o, std::vector<int> default_axes) {
  const AxisLens lens = cook_nd(a, o, true, std::move(default_axes));
  if (lens.empty()) throw IndexError("irfftn needs at least one axis to transform");
  return real_inverse(a, lens, o.norm, o.out, "irfftn");
}

}  // namespace

Norm parse_norm(std::string_view text, bool swapped) {
  if (text == "backward") return Norm::Backward;
  if (text == "ortho") return Norm::Ortho;
  if (text == "forward") return Norm::Forward;
  // NumPy's two spellings: its forward transforms check `norm` in one place, the ones
  // that swap the direction (inverse, hfft, ihfft) in another, with a space more.
  throw ValueError("Invalid norm value " + std::string(text) + "; should be \"backward\"," + (swapped ? " " : "") +
                   "\"ortho\" or \"forward\".");
}

ndarray fft(const ndarray& a, const FftOptions& o) {
  return complex_transform(a, one_axis(a, o, false), true, o.norm, o.out, "fft");
}
ndarray ifft(const ndarray& a, const FftOptions& o) {
  return complex_transform(a, one_axis(a, o, false), false, o.norm, o.out, "ifft");
}
ndarray fftn(const ndarray& a, const FftnOptions& o) { return complex_nd(a, o, true, {}, "fftn"); }
ndarray ifftn(const ndarray& a, const FftnOptions& o) { return complex_nd(a, o, false, {}, "ifftn"); }
ndarray fft2(const ndarray& a, const FftnOptions& o) { return complex_nd(a, o, true, {-2, -1}, "fft2"); }
ndarray ifft2(const ndarray& a, const FftnOptions& o) { return complex_nd(a, o, false, {-2, -1}, "ifft2"); }

ndarray rfft(const ndarray& a, const FftOptions& o) { return real_forward(a, one_axis(a, o, false), o.norm, o.out, "rfft"); }
ndarray irfft(const ndarray& a, const FftOptions& o) {
  return real_inverse(a, one_axis(a, o, true), o.norm, o.out, "irfft");
}
ndarray rfftn(const ndarray& a, const FftnOptions& o) { return real_forward_nd(a, o, {}); }
ndarray irfftn(const ndarray& a, const FftnOptions& o) { return real_inverse_nd(a, o, {}); }
ndarray rfft2(const ndarray& a, const FftnOptions& o) { return real_forward_nd(a, o, {-2, -1}); }
ndarray irfft2(const ndarray& a, const FftnOptions& o) { return real_inverse_nd(a, o, {-2, -1}); }

ndarray hfft(const ndarray& a, const FftOptions& o) {
  const AxisLens lens = one_axis(a, o, true);
  const ndarray conj_a = is_complex(a.dtype()) ? conjugate(a) : a;
  return real_inverse(conj_a, lens, swap_direction(o.norm), o.out, "hfft");
}

ndarray ihfft(const ndarray& a, const FftOptions& o) {
  ndarray r = real_forward(a, one_axis(a, o, false), swap_direction(o.norm), o.out, "ihfft");
  conjugate(r, {.out = {r}});
  return r;
}

}  // namespace cunp::fft
