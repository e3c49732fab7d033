// python/src/random_py.cpp — the C++ side of cunp.random: the Philox state and the
// Generator's draws. python/cunp/random/ builds NumPy's classes on top of these.
#include <nanobind/stl/shared_ptr.h>

#include "convert.hpp"
#include "cunp/random.hpp"

namespace cunp::py {
namespace {

using random::Generator;
using random::Philox;

Shape size_shape(nb::handle size) { return size.is_none() ? Shape{} : to_shape(size); }

random::RandomOptions ropts(nb::handle dtype, nb::handle device) {
  return {.dtype = to_optional_dtype(dtype), .device = to_optional_device(device)};
}

// Binds a float distribution `method(params..., shape, options)` with 0, 1 or 2 scalar
// parameters as name(params..., size, dtype, device).
using Shp = const Shape&;
using Opt = random::RandomOptions;
void def_float(nb::class_<Generator>& c, const char* name, ndarray (Generator::*method)(Shp, Opt)) {
  c.def(name, [method](Generator& g, nb::handle size, nb::handle dtype, nb::handle device) {
    return (g.*method)(size_shape(size), ropts(dtype, device));
  }, nb::arg("size").none(), nb::arg("dtype").none(), nb::arg("device").none());
}
void def_float(nb::class_<Generator>& c, const char* name, ndarray (Generator::*method)(double, Shp, Opt)) {
  c.def(name, [method](Generator& g, double a, nb::handle size, nb::handle dtype, nb::handle device) {
    return (g.*method)(a, size_shape(size), ropts(dtype, device));
  }, nb::arg("a"), nb::arg("size").none(), nb::arg("dtype").none(), nb::arg("device").none());
}
void def_float(nb::class_<Generator>& c, const char* name, ndarray (Generator::*method)(double, double, Shp, Opt)) {
  c.def(name, [method](Generator& g, double a, double b, nb::handle size, nb::handle dtype, nb::handle device) {
    return (g.*method)(a, b, size_shape(size), ropts(dtype, device));
  }, nb::arg("a"), nb::arg("b"), nb::arg("size").none(), nb::arg("dtype").none(), nb::arg("device").none());
}

void bind_random(nb::module_& m) {
  m.def("_random_seed_key", [](std::vector<std::uint32_t> entropy, std::vector<std::uint32_t> spawn_key) {
    return random::SeedSequence(std::move(entropy), std::move(spawn_key)).generate_key();
  });
  nb::class_<Philox>(m, "_Philox")
      .def_prop_ro("key", &Philox::key)
      .def_prop_rw("counter", &Philox::counter, &Philox::set_counter);
  m.def("_philox_from_key", [](std::uint64_t key, std::uint64_t counter) {
    return std::make_shared<Philox>(Philox::from_key(key, counter));
  });
  nb::class_<Generator> g(m, "_Generator");
  m.def("_generator", [](std::shared_ptr<Philox> bg) { return new Generator(std::move(bg)); },
        nb::rv_policy::take_ownership);
  def_float(g, "random", &Generator::random);
  def_float(g, "standard_normal", &Generator::standard_normal);
  def_float(g, "standard_exponential", &Generator::standard_exponential);
  def_float(g, "uniform", &Generator::uniform);
  def_float(g, "normal", &Generator::normal);
  def_float(g, "exponential", &Generator::exponential);
  def_float(g, "lognormal", &Generator::lognormal);
  def_float(g, "standard_gamma", &Generator::standard_gamma);
  def_float(g, "gamma", &Generator::gamma);
  def_float(g, "beta", &Generator::beta);
  def_float(g, "chisquare", &Generator::chisquare);
  def_float(g, "laplace", &Generator::laplace);
  def_float(g, "logistic", &Generator::logistic);
  def_float(g, "gumbel", &Generator::gumbel);
  def_float(g, "weibull", &Generator::weibull);
  def_float(g, "pareto", &Generator::pareto);
  def_float(g, "rayleigh", &Generator::rayleigh);
  g.def("poisson", [](Generator& self, double lam, nb::handle size, nb::handle device) {
    return self.poisson(lam, size_shape(size), to_optional_device(device));
  }, nb::arg("lam"), nb::arg("size").none(), nb::arg("device").none());
  g.def("geometric", [](Generator& self, double p, nb::handle size, nb::handle device) {
    return self.geometric(p, size_shape(size), to_optional_device(device));
  }, nb::arg("p"), nb::arg("size").none(), nb::arg("device").none());
  g.def("integers", [](Generator& self, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype,
                       bool endpoint, nb::handle device) {
    return self.integers(to_scalar(low), to_scalar(high), size_shape(size),
                         {.dtype = to_dtype(dtype), .endpoint = endpoint, .device = to_optional_device(device)});
  }, nb::arg("low"), nb::arg("high"), nb::arg("size").none(), nb::arg("dtype"), nb::arg("endpoint"),
        nb::arg("device").none());
  g.def("permutation", [](Generator& self, std::int64_t n, nb::handle device) {
    return self.permutation(n, to_optional_device(device));
  }, nb::arg("n"), nb::arg("device").none());
}

}  // namespace

CUNP_PY_BINDINGS(bind_random);

}  // namespace cunp::py
