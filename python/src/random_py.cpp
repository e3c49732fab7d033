// python/src/random_py.cpp — the C++ side of cunp.random: the Philox state and the
// Generator's draws. python/cunp/random/ builds NumPy's classes on top of these.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>

#include "convert.hpp"
#include "cunp/random.hpp"

namespace cunp::py {

namespace {

using random::Generator;
using random::Philox;

random::Size to_size(nb::handle size) {
  if (size.is_none()) return std::nullopt;
  return to_shape(size);
}

// The device of a draw: the explicit one, else that of the first cunp array among the
// parameters, else the current one (where list and NumPy parameters are uploaded).
Device param_device(std::initializer_list<nb::handle> params, nb::handle device) {
  if (std::optional<Device> d = to_optional_device(device)) return *d;
  for (nb::handle h : params) {
    if (nb::isinstance<ndarray>(h)) return nb::cast<const ndarray&>(h).device();
  }
  return current_device();
}

random::RandomOptions ropts(nb::handle dtype, Device device) {
  return {.dtype = to_optional_dtype(dtype), .device = device};
}

// Binds a float distribution `method(params..., size, options)` with 0, 1 or 2
// parameters as name(params..., size, dtype, device).
using Sz = const random::Size&;
using Opt = random::RandomOptions;
using Op = const Operand&;
void def_float(nb::class_<Generator>& c, const char* name, ndarray (Generator::*method)(Sz, Opt)) {
  c.def(name, [method](Generator& g, nb::handle size, nb::handle dtype, nb::handle device) {
    return (g.*method)(to_size(size), ropts(dtype, param_device({}, device)));
  }, nb::arg("size").none(), nb::arg("dtype").none(), nb::arg("device").none());
}
void def_float(nb::class_<Generator>& c, const char* name, ndarray (Generator::*method)(Op, Sz, Opt)) {
  c.def(name, [method](Generator& g, nb::handle a, nb::handle size, nb::handle dtype, nb::handle device) {
    const Device dev = param_device({a}, device);
    return (g.*method)(to_operand(a, dev), to_size(size), ropts(dtype, dev));
  }, nb::arg("a"), nb::arg("size").none(), nb::arg("dtype").none(), nb::arg("device").none());
}
void def_float(nb::class_<Generator>& c, const char* name, ndarray (Generator::*method)(Op, Op, Sz, Opt)) {
  c.def(name, [method](Generator& g, nb::handle a, nb::handle b, nb::handle size, nb::handle dtype,
                       nb::handle device) {
    const Device dev = param_device({a, b}, device);
    return (g.*method)(to_operand(a, dev), to_operand(b, dev), to_size(size), ropts(dtype, dev));
  }, nb::arg("a"), nb::arg("b"), nb::arg("size").none(), nb::arg("dtype").none(),
        nb::arg("device").none());
}

void bind_random(nb::module_& m) {
  // cunp.random.SeedSequence holds one (entropy as 32-bit words, least significant first).
  nb::class_<random::SeedSequence>(m, "_SeedSequence")
      .def(nb::init<std::vector<std::uint32_t>, std::vector<std::uint32_t>, std::uint32_t>(), nb::arg("entropy"),
           nb::arg("spawn_key"), nb::arg("n_children_spawned"))
      .def_prop_ro("spawn_key", &random::SeedSequence::spawn_key)
      .def_prop_ro("n_children_spawned", &random::SeedSequence::n_children_spawned)
      .def("generate_key", &random::SeedSequence::generate_key)
      .def("spawn", &random::SeedSequence::spawn, nb::arg("n_children"));
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
  g.def("poisson", [](Generator& self, nb::handle lam, nb::handle size, nb::handle device) {
    const Device dev = param_device({lam}, device);
    return self.poisson(to_operand(lam, dev), to_size(size), dev);
  }, nb::arg("lam"), nb::arg("size").none(), nb::arg("device").none());
  g.def("geometric", [](Generator& self, nb::handle p, nb::handle size, nb::handle device) {
    const Device dev = param_device({p}, device);
    return self.geometric(to_operand(p, dev), to_size(size), dev);
  }, nb::arg("p"), nb::arg("size").none(), nb::arg("device").none());
  g.def("binomial", [](Generator& self, nb::handle n, nb::handle p, nb::handle size, nb::handle device) {
    const Device dev = param_device({n, p}, device);
    return self.binomial(to_operand(n, dev), to_operand(p, dev), to_size(size), dev);
  }, nb::arg("n"), nb::arg("p"), nb::arg("size").none(), nb::arg("device").none());
  g.def("integers", [](Generator& self, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype,
                       bool endpoint, nb::handle device) {
    const Device dev = param_device({low, high}, device);
    return self.integers(to_operand(low, dev), to_operand(high, dev), to_size(size),
                         {.dtype = to_dtype(dtype), .endpoint = endpoint, .device = dev});
  }, nb::arg("low"), nb::arg("high"), nb::arg("size").none(), nb::arg("dtype"), nb::arg("endpoint"),
        nb::arg("device").none());
  g.def("permutation", [](Generator& self, std::int64_t n, nb::handle device) {
    return self.permutation(n, to_optional_device(device));
  }, nb::arg("n"), nb::arg("device").none());
  g.def("permutation_array", [](Generator& self, const ndarray& x, int axis) { return self.permutation(x, axis); },
        nb::arg("x"), nb::arg("axis"));
  g.def("shuffle", [](Generator& self, const ndarray& x, int axis) { self.shuffle(x, axis); }, nb::arg("x"),
        nb::arg("axis"));
  g.def("permuted", [](Generator& self, const ndarray& x, std::optional<int> axis, std::optional<ndarray> out) {
    return self.permuted(x, axis, std::move(out));
  }, nb::arg("x"), nb::arg("axis").none(), nb::arg("out").none());
  g.def("choice", [](Generator& self, nb::handle a, nb::handle size, bool replace, nb::handle p, int axis,
                     bool shuffle, nb::handle device) {
    random::ChoiceOptions o{.replace = replace, .axis = axis, .shuffle = shuffle,
                            .device = to_optional_device(device)};
    if (!p.is_none()) o.p = as_cunp_array(p, Device::cpu(), std::nullopt);
    if (nb::isinstance<ndarray>(a)) return self.choice(nb::cast<const ndarray&>(a), to_size(size), o);
    return self.choice(nb::cast<std::int64_t>(a), to_size(size), o);
  }, nb::arg("a"), nb::arg("size").none(), nb::arg("replace"), nb::arg("p").none(), nb::arg("axis"),
        nb::arg("shuffle"), nb::arg("device").none());
}

}  // namespace

CUNP_PY_BINDINGS(bind_random);

}  // namespace cunp::py
