// python/src/statistics_py.cpp — bindings of cunp/statistics.hpp; the Python
// signatures and argument forms live in python/cunp/_statistics.py.
#include <Python.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <string>

#include "convert.hpp"
#include "cunp/statistics.hpp"

namespace cunp::py {
namespace {


std::optional<ndarray> opt_array(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return nb::cast<ndarray>(h);
}

void bind_statistics(nb::module_& m) {
  using nb::arg;
  m.def(
      "_median",
      [](bool nan, const ndarray& a, nb::handle axis, nb::handle out, bool keepdims) {
        const MedianOptions o{.axis = to_axes(axis), .keepdims = keepdims, .out = opt_array(out)};
        return nan ? nanmedian(a, o) : median(a, o);
      },
      arg("nan"), arg("a"), arg("axis").none(), arg("out").none(), arg("keepdims"));
  m.def(
      "_quantile",
      [](const std::string& kind, const ndarray& a, nb::handle q, nb::handle axis,
         const std::string& method, nb::handle out, bool keepdims) {
        const QuantileOptions o{.axis = to_axes(axis),
                                .method = parse_quantile_method(method),
                                .keepdims = keepdims,
                                .out = opt_array(out)};
        const bool nan = kind.rfind("nan", 0) == 0;
        const bool pct = kind.find("percentile") != std::string::npos;
        if (nb::isinstance<ndarray>(q)) {
          const ndarray& qa = nb::cast<const ndarray&>(q);
          if (pct) return nan ? nanpercentile(a, qa, o) : percentile(a, qa, o);
          return nan ? nanquantile(a, qa, o) : quantile(a, qa, o);
        }
        const double qd = nb::cast<double>(q);
        if (pct) return nan ? nanpercentile(a, qd, o) : percentile(a, qd, o);
        return nan ? nanquantile(a, qd, o) : quantile(a, qd, o);
      },
      arg("kind"), arg("a"), arg("q"), arg("axis").none(), arg("method"), arg("out").none(),
      arg("keepdims"));
  m.def(
      "_average",
      [](const ndarray& a, nb::handle axis, nb::handle weights, bool returned,
         bool keepdims) -> nb::object {
        const AverageOptions o{
            .axis = to_axes(axis), .weights = opt_array(weights), .keepdims = keepdims};
        if (!returned) return nb::cast(average(a, o));
        auto [avg, scl] = average_returned(a, o);
        return nb::make_tuple(avg, scl);
      },
      arg("a"), arg("axis").none(), arg("weights").none(), arg("returned"), arg("keepdims"));
  m.def(
      "_cov",
      [](const ndarray& mm, nb::handle y, bool rowvar, bool bias, std::optional<std::int64_t> ddof,
         nb::handle fweights, nb::handle aweights, nb::handle dtype) {
        return cov(mm, {.y = opt_array(y),
                        .rowvar = rowvar,
                        .bias = bias,
                        .ddof = ddof,
                        .fweights = opt_array(fweights),
                        .aweights = opt_array(aweights),
                        .dtype = to_optional_dtype(dtype)});
      },
      arg("m"), arg("y").none(), arg("rowvar"), arg("bias"), arg("ddof").none(),
      arg("fweights").none(), arg("aweights").none(), arg("dtype").none());
  m.def(
      "_corrcoef",
      [](const ndarray& x, nb::handle y, bool rowvar, nb::handle dtype) {
        return corrcoef(x,
                        {.y = opt_array(y), .rowvar = rowvar, .dtype = to_optional_dtype(dtype)});
      },
      arg("x"), arg("y").none(), arg("rowvar"), arg("dtype").none());
  m.def(
      "_histogram",
      [](bool edges_only, const ndarray& a, nb::handle bins, nb::handle range, nb::handle weights,
         bool density) -> nb::object {
        HistogramOptions o{.weights = opt_array(weights), .density = density};
        if (!range.is_none()) {
          nb::sequence r = nb::borrow<nb::sequence>(range);
          if (nb::len(r) != 2) throw ValueError("too many values to unpack (expected 2)");
          o.range = std::pair<double, double>(nb::cast<double>(nb::float_(r[0])),
                                              nb::cast<double>(nb::float_(r[1])));
        }
        if (nb::isinstance<ndarray>(bins)) {
          const ndarray& b = nb::cast<const ndarray&>(bins);
          if (edges_only) return nb::cast(histogram_bin_edges(a, b, o));
          auto [n, e] = histogram(a, b, o);
          return nb::make_tuple(n, e);
        }
        if (nb::isinstance<nb::str>(bins)) {
          const std::string s = nb::cast<std::string>(bins);
          if (edges_only) return nb::cast(histogram_bin_edges(a, std::string_view(s), o));
          auto [n, e] = histogram(a, std::string_view(s), o);
          return nb::make_tuple(n, e);
        }
        const std::int64_t nb_ = nb::cast<std::int64_t>(bins);
        if (edges_only) return nb::cast(histogram_bin_edges(a, nb_, o));
        auto [n, e] = histogram(a, nb_, o);
        return nb::make_tuple(n, e);
      },
      arg("edges_only"), arg("a"), arg("bins"), arg("range").none(), arg("weights").none(),
      arg("density"));
  m.def(
      "_bincount",
      [](const ndarray& x, nb::handle weights, std::int64_t minlength) {
        return bincount(x, opt_array(weights), minlength);
      },
      arg("x"), arg("weights").none(), arg("minlength"));
  m.def(
      "_digitize",
      [](const ndarray& x, const ndarray& bins, bool right) { return digitize(x, bins, right); },
      arg("x"), arg("bins"), arg("right"));
}

}  // namespace

CUNP_PY_BINDINGS(bind_statistics);

}  // namespace cunp::py
