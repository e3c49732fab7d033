// python/src/ufunc_py.cpp — cunp.ufunc objects (cunp.add, cunp.sin, ...), the
// ndarray operators, and the elementwise helpers (where, clip, real/imag, ...).
#include <Python.h>

#include "convert.hpp"
#include "cpu/simd.hpp"
#include "ufunc/execute.hpp"
#include "ufunc/ufunc.hpp"

namespace cunp::py {

namespace {

struct PyUfunc {
  const ufunc::Ufunc* u;
};

bool is_array(nb::handle h) { return nb::isinstance<ndarray>(h); }

// The device an operation runs on: that of its first cunp array, else the current one.
Device operation_device(std::span<const nb::handle> args) {
  for (nb::handle h : args) {
    if (is_array(h)) return nb::cast<const ndarray&>(h).device();
  }
  return current_device();
}

// Operands of binary operators: NotImplemented (nullopt) for objects that are not
// arrays, scalars or sequences, so Python tries the other operand's method.
std::optional<Operand> operator_operand(nb::handle h, Device device) {
  if (is_array(h) || is_python_scalar(h) || nb::isinstance(h, numpy().attr("generic"))) {
    return to_operand(h, device);
  }
  if (nb::hasattr(h, "__array_interface__") || PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    return to_operand(h, device);
  }
  return std::nullopt;
}

// NumPy's signature= forms: a type string "ff->f" or a tuple of nin + nout dtypes or
// None (one per operand, inputs first).
std::vector<std::optional<DType>> to_signature(const ufunc::Ufunc& uf, nb::handle obj) {
  const std::size_t nargs = static_cast<std::size_t>(uf.nin + uf.nout);
  std::vector<std::optional<DType>> sig;
  const std::string uname = uf.name == "true_divide" ? "divide" : uf.name;
  if (PyUnicode_Check(obj.ptr())) {
    const std::string text = nb::cast<std::string>(obj);
    const std::size_t arrow = text.find("->");
    if (arrow == std::string::npos || arrow != static_cast<std::size_t>(uf.nin) ||
        text.size() - arrow - 2 != static_cast<std::size_t>(uf.nout)) {
      throw ValueError("a type-string for " + uname + ", " + std::to_string(uf.nin) + " typecode(s) before and " +
                       std::to_string(uf.nout) + " after the -> sign");
    }
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (i == arrow || i == arrow + 1) continue;
      sig.emplace_back(to_dtype(nb::str(text.substr(i, 1).c_str())));
    }
    return sig;
  }
  if (!PyTuple_Check(obj.ptr())) throw TypeError("the signature object to ufunc must be a string or a tuple.");
  const std::size_t n = static_cast<std::size_t>(PyTuple_GET_SIZE(obj.ptr()));
  if (n == 1 && nargs > 1) throw TypeError("Use `dtype` or  fill the tuple with more than one 'None'.");
  if (n != nargs) {
    throw ValueError("a type-tuple must be specified of length " + std::to_string(nargs) + " for ufunc '" + uname + "'");
  }
  bool any = false;
  for (nb::handle h : obj) {
    if (h.is_none()) {
      sig.emplace_back(std::nullopt);
    } else {
      sig.emplace_back(to_dtype(h));
      any = true;
    }
  }
  if (!any) sig.clear();  // (None, None, None): nothing fixed
  return sig;
}

nb::object call(const ufunc::Ufunc& uf, nb::args args, nb::kwargs kwargs) {
  const std::size_t nargs = args.size();
  if (nargs < static_cast<std::size_t>(uf.nin) || nargs > static_cast<std::size_t>(uf.nin + uf.nout)) {
    throw TypeError(uf.name + "() takes from " + std::to_string(uf.nin) + " to " + std::to_string(uf.nin + uf.nout) +
                    " positional arguments but " + std::to_string(nargs) + " were given");
  }
  // An operand with __cunp_ufunc__ (a traced value of cunp.fuse) handles the call.
  for (std::size_t k = 0; k < nargs; ++k) {
    const nb::handle h = args[k];
    if (!is_array(h) && !is_python_scalar(h) && nb::hasattr(h, "__cunp_ufunc__"))
      return h.attr("__cunp_ufunc__")(uf.name, args, kwargs);
  }
  nb::handle out_obj, where_obj, dtype_obj, casting_obj, signature_obj;
  for (auto [k, v] : kwargs) {
    const std::string key = nb::cast<std::string>(k);
    if (key == "out") out_obj = v;
    else if (key == "where") where_obj = v;
    else if (key == "dtype") dtype_obj = v;
    else if (key == "casting") casting_obj = v;
    else if (key == "signature") signature_obj = v;
    else if (key == "order" || key == "subok") continue;
    else throw TypeError("'" + key + "' is an invalid keyword to ufunc '" + uf.name + "'");
  }
  std::vector<nb::handle> outs_py;
  for (std::size_t k = static_cast<std::size_t>(uf.nin); k < nargs; ++k) outs_py.push_back(args[k]);
  if (out_obj && !out_obj.is_none()) {
    if (!outs_py.empty()) throw TypeError("cannot specify 'out' as both a positional and keyword argument");
    if (PyTuple_Check(out_obj.ptr())) {
      for (nb::handle h : out_obj) outs_py.push_back(h);
    } else {
      outs_py.push_back(out_obj);
    }
  }
  std::vector<nb::handle> handles;
  for (std::size_t k = 0; k < static_cast<std::size_t>(uf.nin); ++k) handles.push_back(args[k]);
  for (nb::handle h : outs_py) {
    if (!h.is_none()) handles.push_back(h);
  }
  const Device device = operation_device(handles);
  Operand inputs[ufunc::kMaxIn] = {Scalar(0), Scalar(0), Scalar(0), Scalar(0)};
  for (int k = 0; k < uf.nin; ++k) inputs[k] = to_operand(args[static_cast<std::size_t>(k)], device);
  if (outs_py.size() > static_cast<std::size_t>(uf.nout)) {
    throw ValueError("The 'out' tuple must have exactly " + std::to_string(uf.nout) + " entries: one per ufunc output");
  }
  UfuncOptions opts;
  // Outputs given for only some positions (out=(q, None), or fewer positional outs):
  // the others are allocated, and the given ones filled from the results.
  bool partial = false;
  for (std::size_t k = 0; k < static_cast<std::size_t>(uf.nout); ++k) {
    const nb::handle h = k < outs_py.size() ? outs_py[k] : nb::handle();
    if (!h.is_valid() || h.is_none()) {
      partial = true;
      continue;
    }
    if (!is_array(h)) throw TypeError("return arrays must be of ArrayType");
    opts.out.push_back(nb::cast<const ndarray&>(h));
  }
  std::vector<ndarray> given;
  if (partial && !opts.out.empty()) {
    given = std::move(opts.out);
    opts.out.clear();
  }
  if (where_obj && !(PyBool_Check(where_obj.ptr()) && where_obj.ptr() == Py_True)) {
    if (PyBool_Check(where_obj.ptr())) {
      opts.where = as_cunp_array(where_obj, device, DType::Bool);
    } else {
      ndarray w = is_array(where_obj) ? nb::cast<const ndarray&>(where_obj) : as_cunp_array(where_obj, device, std::nullopt);
      if (w.dtype() != DType::Bool) {
        throw TypeError("Cannot cast array data from dtype('" + std::string(name(w.dtype())) +
                        "') to dtype('bool') according to the rule 'safe'");
      }
      opts.where = w;
    }
  }
  if (dtype_obj && !dtype_obj.is_none()) opts.dtype = to_dtype(dtype_obj);
  if (signature_obj && !signature_obj.is_none()) {
    if (opts.dtype) throw TypeError("cannot specify both 'signature' and 'dtype'");
    opts.signature = to_signature(uf, signature_obj);
  }
  if (casting_obj) opts.casting = parse_casting(nb::cast<std::string>(casting_obj));
  std::vector<ndarray> result = ufunc::execute(uf, std::span<const Operand>(inputs, static_cast<std::size_t>(uf.nin)), opts);
  if (!given.empty()) {
    std::size_t g = 0;
    for (std::size_t k = 0; k < outs_py.size(); ++k) {
      if (outs_py[k].is_none()) continue;
      ndarray& dst = given[g++];
      if (!can_cast(result[k].dtype(), dst.dtype(), opts.casting)) {
        throw TypeError("Cannot cast ufunc '" + uf.name + "' output from dtype('" + std::string(name(result[k].dtype())) +
                        "') to dtype('" + std::string(name(dst.dtype())) + "') with casting rule '" +
                        std::string(name(opts.casting)) + "'");
      }
      dst.assign(result[k]);
    }
  }
  auto wrap = [&](std::size_t k) -> nb::object {
    // NumPy returns the out= objects themselves.
    if (k < outs_py.size() && !outs_py[k].is_none()) return nb::borrow(outs_py[k]);
    return nb::cast(std::move(result[k]));
  };
  if (uf.nout == 1) return wrap(0);
  nb::list outs;
  for (std::size_t k = 0; k < static_cast<std::size_t>(uf.nout); ++k) outs.append(wrap(k));
  return nb::tuple(outs);
}

// NumPy calls true_divide "divide" (np.true_divide is np.divide).
std::string display_name(const ufunc::Ufunc& uf) { return uf.name == "true_divide" ? "divide" : uf.name; }

nb::object identity_of(const ufunc::Ufunc& uf) {
  switch (uf.identity) {
    case ufunc::Identity::None: return nb::none();
    case ufunc::Identity::Zero: return nb::int_(0);
    case ufunc::Identity::One: return nb::int_(1);
    case ufunc::Identity::MinusOne: return nb::int_(-1);
    case ufunc::Identity::True: return nb::bool_(true);
    case ufunc::Identity::False: return nb::bool_(false);
    case ufunc::Identity::MinusInf: return nb::float_(-INFINITY);
    case ufunc::Identity::PlusInf: return nb::float_(INFINITY);
  }
  return nb::none();
}

// Note [Temporary elision]: in `a * 2.5 + a` the product is a temporary nothing else
// can see, so the sum may be written into it instead of a fresh array (NumPy does the
// same): one allocation and its page faults fewer, and the loop runs over memory just
// written. An operand qualifies when it is a cpu array of at least kElideBytes that owns
// its buffer alone (no view, no export), writeable and C-contiguous, of the result's dtype
// and shape, whose only reference is the interpreter's value stack: reference count 1
// while the innermost Python frame is executing BINARY_OP, so the operator came straight
// from Python code, not from a C function holding a borrowed reference (NumPy checks
// the C call stack for the same reason). Python 3.14 has its own test of that
// (PyUnstable_Object_IsUniqueReferencedTemporary; its stack may hold borrowed
// references); before 3.11 there is no elision.
constexpr std::int64_t kElideBytes = std::int64_t{256} << 10;

bool called_from_binary_op() {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
  static const int binary_op = [] {
    nb::object opmap = nb::module_::import_("opcode").attr("opmap");
    return nb::cast<int>(opmap["BINARY_OP"]);
  }();
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  if (frame == nullptr) return false;
  const int lasti = PyFrame_GetLasti(frame);
  PyCodeObject* code = PyFrame_GetCode(frame);  // new reference
  PyObject* bytes = PyCode_GetCode(code);       // new reference (the unspecialized bytecode)
  Py_DECREF(code);
  if (bytes == nullptr) {
    PyErr_Clear();
    return false;
  }
  const bool ok = lasti >= 0 && lasti < PyBytes_GET_SIZE(bytes) &&
                  static_cast<unsigned char>(PyBytes_AS_STRING(bytes)[lasti]) == binary_op;
  Py_DECREF(bytes);
  return ok;
#else
  return false;
#endif
}

bool elidable(nb::handle obj, const ndarray& t) {
#if PY_VERSION_HEX >= 0x030E0000
  if (!PyUnstable_Object_IsUniqueReferencedTemporary(obj.ptr())) return false;
#elif PY_VERSION_HEX >= 0x030B0000
  if (Py_REFCNT(obj.ptr()) != 1) return false;
#else
  return false;
#endif
  if (!t.device().is_cpu() || t.nbytes() < kElideBytes || !t.owndata() || !t.writeable() || !t.is_c_contiguous() ||
      t.storage().use_count() != 1) {
    return false;
  }
#if PY_VERSION_HEX >= 0x030E0000
  return true;
#else
  return called_from_binary_op();
#endif
}

// The operand of `in` (0 or 1, whose Python object is objs[k]) that can take the result
// of uf(in...) (Note [Temporary elision]), or -1.
int elision_target(const ufunc::Ufunc& uf, std::span<const Operand> in, const nb::handle* objs) {
  for (int k = 0; k < 2; ++k) {
    if (!in[static_cast<std::size_t>(k)].is_array()) continue;
    const ndarray& t = in[static_cast<std::size_t>(k)].array();
    if (t.nbytes() < kElideBytes || !elidable(objs[k], t)) continue;
    const Operand& o = in[static_cast<std::size_t>(1 - k)];
    try {
      if (o.is_array() && o.array().shape() != t.shape()) {
        const Shape shapes[2] = {t.shape(), o.array().shape()};
        if (broadcast_shapes(shapes) != t.shape()) continue;
      }
      const ufunc::Loop& loop = ufunc::resolve_loop(uf, in, std::nullopt, Casting::SameKind);
      if (loop.out[0] != t.dtype()) continue;
    } catch (const std::exception&) {
      return -1;  // (the plain call below raises NumPy's error)
    }
    return k;
  }
  return -1;
}

// self OP other, or other OP self when `reflected`; NotImplemented for foreign types.
nb::object binary(const ufunc::Ufunc& uf, nb::handle self_obj, nb::handle other, bool reflected) {
  const ndarray& self = nb::cast<const ndarray&>(self_obj);
  if (other.is_none() && (uf.role == ufunc::Role::Equal || uf.role == ufunc::Role::NotEqual)) {
    // NumPy: a == None is elementwise False (a != None: True).
    return nb::cast(full(self.shape(), Scalar(uf.role == ufunc::Role::NotEqual),
                         {.dtype = DType::Bool, .device = self.device()}));
  }
  if (!reflected && uf.role == ufunc::Role::Power && PyLong_CheckExact(other.ptr()) && PyLong_AsLongLong(other.ptr()) == 2) {
    // NumPy's `a ** 2` is square(a) (its fast scalar power): bool ** 2 is int8.
    static const ufunc::Ufunc& square = ufunc::get("square");
    const Operand in[1] = {Operand(self)};
    return nb::cast(ufunc::execute(square, in, {})[0]);
  }
  const std::optional<Operand> o = operator_operand(other, self.device());
  if (!o) return nb::borrow(Py_NotImplemented);
  const Operand in[2] = {reflected ? *o : Operand(self), reflected ? Operand(self) : *o};
  if (uf.nout == 1 && !uf.is_comparison() && (self.nbytes() >= kElideBytes || (o->is_array() && o->array().nbytes() >= kElideBytes))) {
    const nb::handle objs[2] = {reflected ? other : self_obj, reflected ? self_obj : other};
    if (const int k = elision_target(uf, in, objs); k >= 0) {
      UfuncOptions opts;
      opts.out = {in[k].array()};
      ufunc::execute(uf, in, opts);
      return nb::borrow(objs[k]);
    }
  }
  return nb::cast(ufunc::execute(uf, in, {})[0]);
}

nb::object in_place(const ufunc::Ufunc& uf, nb::handle self_obj, nb::handle other) {
  const ndarray& self = nb::cast<const ndarray&>(self_obj);
  const std::optional<Operand> o = operator_operand(other, self.device());
  if (!o) return nb::borrow(Py_NotImplemented);
  const Operand in[2] = {Operand(self), *o};
  UfuncOptions opts;
  opts.out = {self};
  ufunc::execute(uf, in, opts);
  return nb::borrow(self_obj);
}

}  // namespace

Operand to_operand(nb::handle h, Device device) {
  if (is_array(h)) return Operand(nb::cast<const ndarray&>(h));
  if (is_python_scalar(h) || nb::isinstance(h, numpy().attr("generic"))) return Operand(to_scalar(h));
  return Operand(as_cunp_array(h, device, std::nullopt));
}

void bind_ufuncs(nb::module_& m) {
  nb::class_<PyUfunc>(m, "ufunc", nb::dynamic_attr())
      .def("__call__", [](const PyUfunc& f, nb::args args, nb::kwargs kwargs) { return call(*f.u, args, kwargs); })
      .def_prop_ro("nin", [](const PyUfunc& f) { return f.u->nin; })
      .def_prop_ro("nout", [](const PyUfunc& f) { return f.u->nout; })
      .def_prop_ro("nargs", [](const PyUfunc& f) { return f.u->nin + f.u->nout; })
      .def_prop_ro("ntypes", [](const PyUfunc& f) { return f.u->loops.size(); })
      .def_prop_ro("types", [](const PyUfunc& f) {
        std::vector<std::string> t;
        for (const ufunc::Loop& l : f.u->loops) t.push_back(l.signature(f.u->nin, f.u->nout));
        return t;
      })
      .def_prop_ro("identity", [](const PyUfunc& f) { return identity_of(*f.u); })
      .def_prop_ro("signature", [](const PyUfunc&) { return nb::none(); })
      .def("__repr__", [](const PyUfunc& f) { return "<ufunc '" + display_name(*f.u) + "'>"; });
  nb::dict ufuncs;
  nb::dict special_ufuncs;  // cunpx.scipy.special's (ufunc::Space::Special)
  for (const ufunc::Ufunc* u : ufunc::all()) {
    nb::object obj = nb::cast(PyUfunc{u});
    obj.attr("__name__") = display_name(*u);
    (u->space == ufunc::Space::Special ? special_ufuncs : ufuncs)[u->name.c_str()] = obj;
  }
  m.attr("_ufuncs") = ufuncs;
  m.attr("_special_ufuncs") = special_ufuncs;

  // ---- operators of ndarray
  nb::object cls = m.attr("ndarray");
  auto def_binary = [&](const char* name, const char* rname, const char* iname, const char* uf_name) {
    const ufunc::Ufunc* u = &ufunc::get(uf_name);
    cls.attr(name) = nb::cpp_function([u](nb::pointer_and_handle<ndarray> a, nb::handle b) { return binary(*u, a.h, b, false); },
                                      nb::is_method(), nb::name(name), nb::arg("other").none());
    if (rname) {
      cls.attr(rname) = nb::cpp_function([u](nb::pointer_and_handle<ndarray> a, nb::handle b) { return binary(*u, a.h, b, true); },
                                         nb::is_method(), nb::name(rname), nb::arg("other").none());
    }
    if (iname) {
      cls.attr(iname) = nb::cpp_function([u](nb::handle a, nb::handle b) { return in_place(*u, a, b); },
                                         nb::is_method(), nb::name(iname), nb::arg("other").none());
    }
  };
  def_binary("__add__", "__radd__", "__iadd__", "add");
  def_binary("__sub__", "__rsub__", "__isub__", "subtract");
  def_binary("__mul__", "__rmul__", "__imul__", "multiply");
  def_binary("__truediv__", "__rtruediv__", "__itruediv__", "true_divide");
  def_binary("__floordiv__", "__rfloordiv__", "__ifloordiv__", "floor_divide");
  def_binary("__mod__", "__rmod__", "__imod__", "remainder");
  def_binary("__pow__", "__rpow__", "__ipow__", "power");
  def_binary("__and__", "__rand__", "__iand__", "bitwise_and");
  def_binary("__or__", "__ror__", "__ior__", "bitwise_or");
  def_binary("__xor__", "__rxor__", "__ixor__", "bitwise_xor");
  def_binary("__lshift__", "__rlshift__", "__ilshift__", "left_shift");
  def_binary("__rshift__", "__rrshift__", "__irshift__", "right_shift");
  def_binary("__eq__", nullptr, nullptr, "equal");
  def_binary("__ne__", nullptr, nullptr, "not_equal");
  def_binary("__lt__", nullptr, nullptr, "less");
  def_binary("__le__", nullptr, nullptr, "less_equal");
  def_binary("__gt__", nullptr, nullptr, "greater");
  def_binary("__ge__", nullptr, nullptr, "greater_equal");
  const ufunc::Ufunc* dm = &ufunc::get("divmod");
  auto divmod_op = [dm](const ndarray& a, nb::handle b, bool reflected) -> nb::object {
    const std::optional<Operand> o = operator_operand(b, a.device());
    if (!o) return nb::borrow(Py_NotImplemented);
    const Operand in[2] = {reflected ? *o : Operand(a), reflected ? Operand(a) : *o};
    std::vector<ndarray> r = ufunc::execute(*dm, in, {});
    return nb::make_tuple(r[0], r[1]);
  };
  cls.attr("__divmod__") = nb::cpp_function([divmod_op](const ndarray& a, nb::handle b) { return divmod_op(a, b, false); },
                                            nb::is_method(), nb::name("__divmod__"));
  cls.attr("__rdivmod__") = nb::cpp_function([divmod_op](const ndarray& a, nb::handle b) { return divmod_op(a, b, true); },
                                             nb::is_method(), nb::name("__rdivmod__"));
  auto def_unary = [&](const char* name, const char* uf_name) {
    const ufunc::Ufunc* u = &ufunc::get(uf_name);
    cls.attr(name) = nb::cpp_function(
        [u](const ndarray& a) {
          const Operand in[1] = {Operand(a)};
          return ufunc::execute(*u, in, {})[0];
        },
        nb::is_method(), nb::name(name));
  };
  def_unary("__neg__", "negative");
  def_unary("__pos__", "positive");
  def_unary("__abs__", "absolute");
  def_unary("__invert__", "invert");
  cls.attr("__hash__") = nb::none();

  // ---- elementwise helpers
  m.def("_where3", [](nb::handle c, nb::handle x, nb::handle y) {
    const nb::handle hs[3] = {c, x, y};
    const Device d = operation_device(hs);
    return where(to_operand(c, d), to_operand(x, d), to_operand(y, d));
  });
  m.def("_clip", [](nb::handle a, nb::handle lo, nb::handle hi, nb::handle out, nb::handle dtype,
                    nb::handle casting) -> nb::object {
    const nb::handle hs[3] = {a, lo, hi};
    const Device d = operation_device(hs);
    UfuncOptions o;
    if (!out.is_none()) {
      if (!is_array(out)) throw TypeError("return arrays must be of ArrayType");
      o.out = {nb::cast<const ndarray&>(out)};
    }
    if (!dtype.is_none()) o.dtype = to_dtype(dtype);
    if (!casting.is_none()) o.casting = parse_casting(nb::cast<std::string>(casting));
    std::optional<Operand> l, h;
    if (!lo.is_none()) l = to_operand(lo, d);
    if (!hi.is_none()) h = to_operand(hi, d);
    ndarray r = clip(to_operand(a, d), l, h, o);
    if (!out.is_none()) return nb::borrow(out);
    return nb::cast(r);
  }, nb::arg("a"), nb::arg("a_min").none(), nb::arg("a_max").none(), nb::arg("out").none(), nb::arg("dtype").none(),
     nb::arg("casting").none());
  // The cpu device's SIMD target (Note [CPU SIMD dispatch]): its name, and switching it
  // (as CUNP_CPU_SIMD does at start-up) for tests and benchmarks.
  m.def("_cpu_simd_target", [] { return cunp::cpu::simd::target_name(); });
  m.def("_set_cpu_simd_target", [](const std::string& name) { return cunp::cpu::simd::set_target(name); });
  m.def("_real", [](const ndarray& a) { return real(a); });
  m.def("_imag", [](const ndarray& a) { return imag(a); });
  m.def("_angle", [](nb::handle z, bool deg) {
    const nb::handle hs[1] = {z};
    return angle(to_operand(z, operation_device(hs)), deg);
  });
  m.def("_nan_to_num", [](const ndarray& x, bool copy, nb::handle nan, nb::handle posinf, nb::handle neginf) {
    const Device d = x.device();
    std::optional<Operand> pos, neg;
    if (!posinf.is_none()) pos = to_operand(posinf, d);
    if (!neginf.is_none()) neg = to_operand(neginf, d);
    return nan_to_num(x, copy, to_operand(nan, d), pos, neg);
  }, nb::arg("x"), nb::arg("copy"), nb::arg("nan"), nb::arg("posinf").none(), nb::arg("neginf").none());
  m.def("_around", [](const ndarray& a, int decimals) { return around(a, decimals); });
  m.def("_isclose", [](nb::handle a, nb::handle b, double rtol, double atol, bool equal_nan) {
    const nb::handle hs[2] = {a, b};
    const Device d = operation_device(hs);
    return isclose(to_operand(a, d), to_operand(b, d), rtol, atol, equal_nan);
  });
  m.def("_allclose", [](nb::handle a, nb::handle b, double rtol, double atol, bool equal_nan) {
    const nb::handle hs[2] = {a, b};
    const Device d = operation_device(hs);
    return allclose(to_operand(a, d), to_operand(b, d), rtol, atol, equal_nan);
  });
  m.def("_array_equal", [](const ndarray& a, const ndarray& b, bool equal_nan) { return array_equal(a, b, equal_nan); });
}

}  // namespace cunp::py
