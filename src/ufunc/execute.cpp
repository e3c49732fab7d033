// src/ufunc/execute.cpp — the iterator step of DESIGN.md §1 for ufuncs: operand
// checks, NEP 50 loop selection, broadcasting, output allocation or out= checks,
// overlap handling, then the cpu loop or the generated CUDA kernel.
#include "ufunc/execute.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "copy/copy.hpp"
#include "cpu/parallel.hpp"
#include "ufunc/elementwise.hpp"
#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/errstate.hpp"
#include "iter/layout.hpp"

namespace cunp::ufunc {
namespace {

int kind_rank(DType d) {
  switch (kind(d)) {
    case DTypeKind::Bool: return 0;
    case DTypeKind::UnsignedInt:
    case DTypeKind::SignedInt: return 1;
    case DTypeKind::Float: return 2;
    case DTypeKind::Complex: return 3;
  }
  return 0;
}

// Whether a weak (Python) scalar of kind `k` may be used as loop input `d`.
bool weak_fits(WeakKind k, DType d) { return static_cast<int>(k) <= kind_rank(d); }

std::string dtype_list(const Ufunc& uf, std::span<const Operand> inputs) {
  std::string s = "(";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (i) s += ", ";
    const Operand& op = inputs[i];
    if (op.is_array() || !op.scalar().weak()) {
      s += "dtype('" + std::string(name(op.is_array() ? op.array().dtype() : op.scalar().dtype())) + "')";
    } else {
      static const char* kinds[] = {"bool", "int", "float", "complex"};
      s += std::string("<class '") + kinds[static_cast<int>(op.scalar().weak_kind())] + "'>";
    }
  }
  (void)uf;
  return s + ")";
}

[[noreturn]] void no_loop(const Ufunc& uf, std::span<const Operand> inputs) {
  if (uf.name == "subtract" && std::all_of(inputs.begin(), inputs.end(), [](const Operand& o) {
        return (o.is_array() ? o.array().dtype() : o.scalar().dtype()) == DType::Bool;
      })) {
    throw TypeError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
        "operator, or the logical_xor function instead.");
  }
  if (uf.name == "negative" && !inputs.empty() &&
      (inputs[0].is_array() ? inputs[0].array().dtype() : inputs[0].scalar().dtype()) == DType::Bool) {
    throw TypeError(
        "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or "
        "the logical_not function instead.");
  }
  throw TypeError("ufunc '" + uf.name + "' did not contain a loop with signature matching types " +
                  dtype_list(uf, inputs));
}

// Note [Fixed loop types]: signature= names some loop types (inputs then outputs).
// As NumPy's dispatch: a loop of exactly the operands' free dtypes first; else the
// free types filled as its promoters do (the fixed outputs' dtype when they agree,
// else the NEP 50 promotion of the inputs with fixed ones as given; bool for the
// logical ufuncs) when such a loop exists; else the first loop of the fixed types
// whose free inputs cast safely (its legacy type-tuple resolver). Fixed inputs are
// checked against `casting` afterwards, with the input's message.
const Loop& fixed_signature_loop(const Ufunc& uf, std::span<const std::optional<DType>> sig, const DType* strong,
                                 const bool* is_weak, const WeakKind* weak_kind) {
  const int nargs = uf.nin + uf.nout;
  auto fixed = [&](int k) { return sig[static_cast<std::size_t>(k)]; };
  auto loop_type = [&](const Loop& l, int k) {
    return k < uf.nin ? l.in[static_cast<std::size_t>(k)] : l.out[static_cast<std::size_t>(k - uf.nin)];
  };
  // First a loop of exactly the operands' dtypes where they are free (no Python scalar
  // matches exactly), as NumPy's dispatch tries before its promoters.
  for (const Loop& l : uf.loops) {
    bool ok = true;
    for (int k = 0; k < nargs && ok; ++k) {
      const DType t = loop_type(l, k);
      if (fixed(k)) ok = t == *fixed(k);
      else if (k < uf.nin) ok = !is_weak[k] && t == strong[k];
    }
    if (ok) return l;
  }
  DType target[kMaxIn + kMaxOut];
  if (uf.role == Role::Logical) {
    for (int k = 0; k < nargs; ++k) target[k] = fixed(k).value_or(DType::Bool);
  } else {
    std::optional<DType> common;
    for (int k = uf.nin; k < nargs; ++k) {
      if (!fixed(k)) continue;
      if (common && *common != *fixed(k)) {
        common.reset();
        break;
      }
      common = fixed(k);
    }
    if (!common) {
      DType s[kMaxIn];
      WeakKind w[kMaxIn];
      std::size_t ns = 0, nw = 0;
      for (int k = 0; k < uf.nin; ++k) {
        if (fixed(k)) s[ns++] = *fixed(k);
        else if (is_weak[k]) w[nw++] = weak_kind[k];
        else s[ns++] = strong[k];
      }
      common = result_type(std::span<const DType>(s, ns), std::span<const WeakKind>(w, nw));
    }
    for (int k = 0; k < nargs; ++k) target[k] = fixed(k).value_or(*common);
  }
  for (const Loop& l : uf.loops) {
    bool ok = true;
    for (int k = 0; k < nargs && ok; ++k) ok = loop_type(l, k) == target[k];
    if (ok) return l;
  }
  // NumPy's legacy type-tuple resolution when the promoted loop does not exist (not for
  // the logical ufuncs, whose promoter is final).
  for (const Loop& l : uf.loops) {
    bool ok = uf.role != Role::Logical;
    for (int k = 0; k < nargs && ok; ++k) {
      const DType t = loop_type(l, k);
      if (fixed(k)) {
        ok = t == *fixed(k);
      } else if (k < uf.nin) {
        ok = is_weak[k] ? weak_fits(weak_kind[k], t) : can_cast(strong[k], t, Casting::Safe);
      }
    }
    if (ok) return l;
  }
  throw TypeError("No loop matching the specified signature and casting was found for ufunc " +
                  std::string(uf.display_name()));
}

}  // namespace

const Loop& resolve_loop(const Ufunc& uf, std::span<const Operand> inputs, std::optional<DType> dtype,
                         Casting casting, std::span<const std::optional<DType>> signature) {
  DType strong[kMaxIn];
  bool is_weak[kMaxIn];
  WeakKind weak_kind[kMaxIn];
  for (int k = 0; k < uf.nin; ++k) {
    const Operand& op = inputs[static_cast<std::size_t>(k)];
    is_weak[k] = !op.is_array() && op.scalar().weak();
    strong[k] = op.is_array() ? op.array().dtype() : op.scalar().dtype();
    weak_kind[k] = op.is_array() ? WeakKind::Bool : op.scalar().weak_kind();
  }
  // A lone Python int in [2**63, 2**64) is NumPy's asarray of it: uint64
  // (np.absolute(2**63) is uint64; beside other operands it is int64 and overflows).
  if (uf.nin == 1 && is_weak[0] && strong[0] == DType::UInt64 && !inputs[0].scalar().is_big_int()) is_weak[0] = false;
  if (!signature.empty()) return fixed_signature_loop(uf, signature, strong, is_weak, weak_kind);
  if (dtype) {
    // dtype= fixes every output (NumPy: signature=(None, .., dtype, ..)): the first loop
    // of that output dtype whose inputs cast under `casting` (safely for the ufuncs
    // NumPy resolves per operand, as its type-tuple resolver does).
    const Casting in_casting =
        uf.resolution == Resolution::PerOperand && casting > Casting::Safe ? Casting::Safe : casting;
    for (const Loop& l : uf.loops) {
      bool ok = true;
      for (int k = 0; k < uf.nout && ok; ++k) ok = l.out[static_cast<std::size_t>(k)] == *dtype;
      for (int k = 0; k < uf.nin && ok; ++k) {
        const DType want = l.in[static_cast<std::size_t>(k)];
        ok = is_weak[k] ? weak_fits(weak_kind[k], want) || casting == Casting::Unsafe
                        : can_cast(strong[k], want, in_casting);
      }
      if (ok) return l;
    }
    throw TypeError("ufunc '" + uf.name + "' has no loop computing in dtype('" + std::string(name(*dtype)) +
                    "') for input types " + dtype_list(uf, inputs));
  }
  // A loop matching the operands' dtypes exactly wins (NumPy dispatches exact matches
  // before promoting: int64 == uint64 uses its "lL->?" loop).
  bool all_strong = true;
  for (int k = 0; k < uf.nin; ++k) all_strong = all_strong && !is_weak[k];
  if (all_strong && uf.resolution != Resolution::TrueDivide) {
    for (const Loop& l : uf.loops) {
      bool same = true;
      for (int k = 0; k < uf.nin && same; ++k) same = l.in[static_cast<std::size_t>(k)] == strong[k];
      if (same) return l;
    }
  }
  // NumPy's linear search: the first loop every operand casts to safely. A weak
  // (Python) scalar takes the dtype NEP 50 gives it next to the other operands
  // (int8_array + 3 reads 3 as int8; int8_array + 2.5 reads 2.5 as float64).
  DType s[kMaxIn];
  WeakKind w[kMaxIn];
  int ns = 0, nw = 0;
  for (int k = 0; k < uf.nin; ++k) {
    if (is_weak[k]) w[nw++] = weak_kind[k];
    else s[ns++] = strong[k];
  }
  const DType common = result_type(std::span<const DType>(s, static_cast<std::size_t>(ns)),
                                   std::span<const WeakKind>(w, static_cast<std::size_t>(nw)));
  DType operand[kMaxIn];
  for (int k = 0; k < uf.nin; ++k) operand[k] = is_weak[k] ? common : strong[k];
  const bool integer_division = uf.resolution == Resolution::TrueDivide && !is_inexact(common);
  if (integer_division) {
    for (int k = 0; k < uf.nin; ++k) operand[k] = DType::Float64;  // integers divide in float64
  }
  // NumPy's per-operand (legacy) resolver lets a Python int beside an array take any
  // integer or inexact loop type (np.ldexp(1, int16_array) is float16); a Python
  // float or complex takes its default dtype.
  // (NumPy's min-scalar rule: only when an array is of integer or inexact kind; beside
  // bool arrays the int is int64.)
  bool int_any_kind = false;
  for (int k = 0; k < ns; ++k) int_any_kind = int_any_kind || (uf.resolution == Resolution::PerOperand && s[k] != DType::Bool);
  for (const Loop& l : uf.loops) {
    bool ok = true;
    for (int k = 0; k < uf.nin && ok; ++k) {
      const DType want = l.in[static_cast<std::size_t>(k)];
      if (uf.resolution == Resolution::Uniform) {
        ok = want == common;
      } else if (is_weak[k] && int_any_kind && weak_kind[k] == WeakKind::Int) {
        ok = weak_fits(WeakKind::Int, want);
      } else {
        // A Python scalar may also take its kind's default dtype (ldexp(x, 3) reads 3
        // as int64 for the "fl->f" loop).
        ok = can_cast(operand[k], want, Casting::Safe) ||
             (is_weak[k] && !integer_division &&
              can_cast(result_type({}, std::span<const WeakKind>(&weak_kind[k], 1)), want, Casting::Safe));
      }
    }
    if (ok) return l;
  }
  no_loop(uf, inputs);
}

namespace {

// The layout order NumPy's order='K' gives a new output: the only full-shape array
// input's layout, or F when every array input is F-contiguous (and not C), else C.
ndarray allocate_output(const Shape& shape, DType dtype, Device device, std::span<const Operand> inputs) {
  const ndarray* like = nullptr;
  bool all_f = true;
  int arrays = 0;
  for (const Operand& op : inputs) {
    if (!op.is_array()) continue;
    ++arrays;
    const ndarray& a = op.array();
    if (!(a.is_f_contiguous() && !a.is_c_contiguous())) all_f = false;
    if (a.shape() == shape && !like) like = &a;
  }
  if (arrays == 1 && like && !like->is_c_contiguous() && shape.size() > 1) {
    return detail::empty_with_layout_of(*like, dtype, Order::K, device);
  }
  return empty(shape, {.dtype = dtype, .order = (arrays > 0 && all_f && shape.size() > 1) ? Order::F : Order::C,
                       .device = device});
}

std::string shape_compact(const Shape& s) {
  std::string r = "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) r += ',';
    r += std::to_string(s[i]);
  }
  if (s.size() == 1) r += ',';
  return r + ")";
}

// NumPy refuses integers to negative integer powers (ValueError). A scalar exponent
// is checked directly; an array exponent is read on the host.
// Note [Negative integer exponents]: the check of an array exponent costs a transfer
// of the exponents (D2H) on GPUs; integer powers by arrays are rare and NumPy raises.
void check_integer_exponents(const Operand& exponent) {
  bool negative = false;
  if (!exponent.is_array()) {
    const Scalar& s = exponent.scalar();
    negative = kind(s.dtype()) == DTypeKind::SignedInt && s.to_int64() < 0;
  } else if (kind(exponent.array().dtype()) == DTypeKind::SignedInt) {
    const ndarray e = ascontiguousarray(exponent.array().astype(DType::Int64, {.copy = false}));
    for (std::int64_t v : e.to_vector<std::int64_t>()) negative = negative || v < 0;
  }
  if (negative) throw ValueError("Integers to negative integer powers are not allowed.");
}

// NumPy 2 compares integer arrays with Python ints outside the array's range by value:
// uint8_array == -1 is all False, uint8_array < 300 all True. The result is a constant.
std::optional<std::vector<ndarray>> compare_out_of_range(const Ufunc& uf, const Loop& loop,
                                                         std::span<const Operand> inputs, const UfuncOptions& options,
                                                         Device device) {
  if (!uf.is_comparison() || uf.nin != 2) return std::nullopt;
  for (int k = 0; k < 2; ++k) {
    const Operand& sc = inputs[static_cast<std::size_t>(k)];
    const Operand& other = inputs[static_cast<std::size_t>(1 - k)];
    if (sc.is_array() || !sc.scalar().weak() || sc.scalar().weak_kind() != WeakKind::Int) continue;
    const DType dt = loop.in[static_cast<std::size_t>(k)];
    if (!is_integer(dt) || sc.scalar().fits(dt) || !other.is_array() || !is_integer(other.array().dtype())) continue;
    // The scalar is above the dtype's range when positive, below when negative.
    const bool above = sc.scalar().dtype() == DType::UInt64 || sc.scalar().to_double() > 0;
    // Whether the left operand is the smaller (the scalar is on the right when k == 1).
    const bool left_less = k == 1 ? above : !above;
    bool r = false;
    switch (uf.role) {
      case Role::NotEqual: r = true; break;
      case Role::Less:
      case Role::LessEqual: r = left_less; break;
      case Role::Greater:
      case Role::GreaterEqual: r = !left_less; break;
      default: r = false; break;  // Equal
    }
    Shape shape = other.array().shape();
    std::vector<ndarray> outs = options.out;
    if (outs.empty()) outs.push_back(empty(shape, {.dtype = DType::Bool, .device = device}));
    outs[0].fill(Scalar(r));
    return outs;
  }
  return std::nullopt;
}

}  // namespace

std::vector<ndarray> execute(const Ufunc& uf, std::span<const Operand> inputs, const UfuncOptions& options) {
  if (static_cast<int>(inputs.size()) != uf.nin) {
    throw TypeError(uf.name + "() takes from " + std::to_string(uf.nin) + " to " +
                    std::to_string(uf.nin + uf.nout) + " positional arguments but " +
                    std::to_string(inputs.size()) + " were given");
  }
  if (!options.out.empty() && static_cast<int>(options.out.size()) != uf.nout) {
    throw ValueError("The 'out' tuple must have exactly " + std::to_string(uf.nout) + " entries: one per ufunc output");
  }
  if (!options.signature.empty()) {
    if (options.signature.size() != static_cast<std::size_t>(uf.nin + uf.nout)) {
      throw ValueError("a type-tuple must be specified of length " + std::to_string(uf.nin + uf.nout) +
                       " for ufunc '" + uf.display_name() + "'");
    }
    if (options.dtype) throw TypeError("cannot specify both 'signature' and 'dtype'");
  }
  // ---- device: every array operand on one device
  std::optional<Device> device;
  auto note_device = [&](const ndarray& a, const char* what) {
    if (!a.defined()) throw ValueError(std::string(what) + " is an undefined array");
    if (!device) {
      device = a.device();
    } else if (*device != a.device()) {
      throw ValueError("ufunc '" + uf.name + "': operands are on different devices (" + device->str() + " and " +
                       a.device().str() + "); move them with to_device() first");
    }
  };
  for (const Operand& op : inputs) {
    if (op.is_array()) note_device(op.array(), "an input");
  }
  for (const ndarray& o : options.out) note_device(o, "out");
  if (options.where) note_device(*options.where, "where");
  if (!device) device = current_device();

  const Loop& loop = resolve_loop(uf, inputs, options.dtype, options.casting, options.signature);

  if (uf.role == Role::Logical) {
    // Only the truth of a Python int matters (np.logical_and(int8_array, 300) is no
    // OverflowError): one that the loop type cannot hold is read as a bool.
    Operand adjusted[kMaxIn] = {Scalar(false), Scalar(false), Scalar(false), Scalar(false)};
    bool changed = false;
    for (int k = 0; k < uf.nin; ++k) {
      const Operand& op = inputs[static_cast<std::size_t>(k)];
      adjusted[k] = op;
      // (Beyond int64 NumPy raises OverflowError, as the checks below do.)
      if (!op.is_array() && op.scalar().weak() && op.scalar().dtype() == DType::Int64 && !op.scalar().is_big_int() &&
          !op.scalar().fits(loop.in[static_cast<std::size_t>(k)])) {
        adjusted[k] = Operand(Scalar(op.scalar().to_bool()));
        changed = true;
      }
    }
    for (int k = 0; k < uf.nin; ++k) {
      const Operand& op = inputs[static_cast<std::size_t>(k)];
      // (A lone one in uint64's range is uint64: np.logical_not(2**63).)
      if (!op.is_array() && op.scalar().weak() &&
          ((op.scalar().dtype() == DType::UInt64 && uf.nin > 1) || op.scalar().is_big_int())) {
        throw OverflowError("Python int too large to convert to C long");
      }
    }
    if (changed) return execute(uf, std::span<const Operand>(adjusted, inputs.size()), options);
  }

  if (std::optional<std::vector<ndarray>> r = compare_out_of_range(uf, loop, inputs, options, *device)) return *r;

  // ---- casting checks (inputs to the loop, loop to the outputs)
  for (int k = 0; k < uf.nin; ++k) {
    const Operand& op = inputs[static_cast<std::size_t>(k)];
    const DType want = loop.in[static_cast<std::size_t>(k)];
    if (op.is_array() || !op.scalar().weak()) {
      const DType have = op.is_array() ? op.array().dtype() : op.scalar().dtype();
      // The logical ufuncs read any input as bool (NumPy's logical promoter).
      const bool as_truth = uf.role == Role::Logical && want == DType::Bool;
      if (!as_truth && !can_cast(have, want, options.casting)) {
        throw TypeError("Cannot cast ufunc '" + uf.name + "' input " + std::to_string(k) + " from dtype('" +
                        std::string(name(have)) + "') to dtype('" + std::string(name(want)) +
                        "') with casting rule '" + std::string(cunp::name(options.casting)) + "'");
      }
      detail::warn_complex_to_real(have, want);
    } else {
      detail::check_weak_scalar_fits(op.scalar(), want);
    }
  }
  for (std::size_t k = 0; k < options.out.size(); ++k) {
    if (!can_cast(loop.out[k], options.out[k].dtype(), options.casting)) {
      throw TypeError("Cannot cast ufunc '" + uf.name + "' output from dtype('" + std::string(name(loop.out[k])) +
                      "') to dtype('" + std::string(name(options.out[k].dtype())) + "') with casting rule '" +
                      std::string(cunp::name(options.casting)) + "'");
    }
    detail::warn_complex_to_real(loop.out[k], options.out[k].dtype());
  }

  if (uf.role == Role::Power && is_integer(loop.in[1])) check_integer_exponents(inputs[1]);

  // ---- shapes
  const Shape* shapes[kMaxIn + 1];
  std::size_t nshapes = 0;
  for (const Operand& op : inputs) {
    if (op.is_array()) shapes[nshapes++] = &op.array().shape();
  }
  if (options.where) shapes[nshapes++] = &options.where->shape();
  Shape shape = broadcast_shapes(std::span<const Shape* const>(shapes, nshapes));
  if (!options.out.empty()) {
    const Shape& os = options.out[0].shape();
    const Shape* with_out[2] = {&shape, &os};
    const Shape both = broadcast_shapes(with_out);
    if (both != os) {
      throw ValueError("non-broadcastable output operand with shape " + shape_compact(os) +
                       " doesn't match the broadcast shape " + shape_compact(both));
    }
    shape = os;
    for (const ndarray& o : options.out) {
      if (o.shape() != shape) throw ValueError("all output arrays of a ufunc must have the same shape");
      if (!o.writeable()) throw ValueError("output array is read-only");
    }
  }

  // ---- outputs
  std::vector<ndarray> outs;
  outs.reserve(static_cast<std::size_t>(uf.nout));
  if (options.out.empty()) {
    for (int k = 0; k < uf.nout; ++k) outs.push_back(allocate_output(shape, loop.out[static_cast<std::size_t>(k)], *device, inputs));
  } else {
    outs = options.out;
  }
  const std::int64_t size = shape_size(shape);
  if (size == 0) return outs;

  // where=: compute into temporaries, then select into the outputs.
  if (options.where) {
    std::vector<ndarray> tmp;
    UfuncOptions inner;
    inner.casting = options.casting;
    inner.dtype = options.dtype;
    inner.signature = options.signature;
    for (int k = 0; k < uf.nout; ++k) {
      inner.out.push_back(empty(shape, {.dtype = outs[static_cast<std::size_t>(k)].dtype(), .device = *device}));
    }
    execute(uf, inputs, inner);
    const Ufunc& sel = get("_where");
    for (int k = 0; k < uf.nout; ++k) {
      const Operand sel_in[3] = {*options.where, inner.out[static_cast<std::size_t>(k)], outs[static_cast<std::size_t>(k)]};
      UfuncOptions so;
      so.out = {outs[static_cast<std::size_t>(k)]};
      so.casting = Casting::Unsafe;
      execute(sel, sel_in, so);
    }
    return outs;
  }

  // ---- operands, outputs first. Inputs that overlap an output (other than being the
  // very same view) are read from a copy, as NumPy does.
  ndarray arrays[kMaxIn];
  for (int k = 0; k < uf.nin; ++k) {
    const Operand& op = inputs[static_cast<std::size_t>(k)];
    if (!op.is_array()) continue;
    ndarray a = op.array();
    for (const ndarray& o : outs) {
      if (a.may_share_memory(o) && !(a.data() == o.data() && a.strides() == o.strides() && a.shape() == o.shape())) {
        a = a.copy(Order::K);
        break;
      }
    }
    arrays[k] = a;
  }

  const int nop = uf.nout + uf.nin;
  std::vector<Strides> strides(static_cast<std::size_t>(nop));
  for (int k = 0; k < uf.nout; ++k) strides[static_cast<std::size_t>(k)] = outs[static_cast<std::size_t>(k)].strides();

  if (device->is_cuda()) {
    cuda::Operand ops[kMaxIn + kMaxOut];
    for (int k = 0; k < uf.nout; ++k) {
      ops[k].dtype = outs[static_cast<std::size_t>(k)].dtype();
      ops[k].data = outs[static_cast<std::size_t>(k)].data();
    }
    for (int k = 0; k < uf.nin; ++k) {
      cuda::Operand& o = ops[uf.nout + k];
      const Operand& in = inputs[static_cast<std::size_t>(k)];
      if (in.is_array()) {
        o.dtype = arrays[k].dtype();
        o.data = arrays[k].data();
        strides[static_cast<std::size_t>(uf.nout + k)] = iter::broadcast_strides(arrays[k], shape);
      } else {
        o.is_scalar = true;
        o.dtype = loop.in[static_cast<std::size_t>(k)];
        in.scalar().write_as(o.dtype, o.value);
        strides[static_cast<std::size_t>(uf.nout + k)] = Strides(shape.size(), 0);
      }
    }
    const iter::LoopLayout layout = iter::make_layout(shape, strides);
    cuda::DeviceScope scope(device->index);
    cuda::launch_ufunc(uf, loop, layout, std::span<const cuda::Operand>(ops, static_cast<std::size_t>(nop)));
    return outs;
  }

  // cpu: every operand in the loop's dtypes (inputs cast to temporaries; outputs of
  // another dtype written through a temporary).
  alignas(16) unsigned char scalars[kMaxIn][16];
  char* ptrs[kMaxIn + kMaxOut];
  std::vector<ndarray> loop_outs = outs;
  for (int k = 0; k < uf.nout; ++k) {
    if (outs[static_cast<std::size_t>(k)].dtype() != loop.out[static_cast<std::size_t>(k)]) {
      loop_outs[static_cast<std::size_t>(k)] = empty(shape, {.dtype = loop.out[static_cast<std::size_t>(k)], .device = *device});
      strides[static_cast<std::size_t>(k)] = loop_outs[static_cast<std::size_t>(k)].strides();
    }
    ptrs[k] = static_cast<char*>(loop_outs[static_cast<std::size_t>(k)].data());
  }
  for (int k = 0; k < uf.nin; ++k) {
    const Operand& in = inputs[static_cast<std::size_t>(k)];
    const DType want = loop.in[static_cast<std::size_t>(k)];
    if (in.is_array()) {
      if (arrays[k].dtype() != want) {  // (any ComplexWarning was emitted above)
        ndarray cast = detail::empty_with_layout_of(arrays[k], want, Order::K, *device);
        detail::copy_elements(cast, arrays[k]);
        arrays[k] = cast;
      }
      strides[static_cast<std::size_t>(uf.nout + k)] = iter::broadcast_strides(arrays[k], shape);
      ptrs[uf.nout + k] = static_cast<char*>(arrays[k].data());
    } else {
      in.scalar().write_as(want, scalars[k]);
      strides[static_cast<std::size_t>(uf.nout + k)] = Strides(shape.size(), 0);
      ptrs[uf.nout + k] = reinterpret_cast<char*>(scalars[k]);
    }
  }
  const iter::LoopLayout layout = iter::make_layout(shape, strides);
  // Note [Floating-point status] (cunp/errstate.hpp): read only when some mode is not
  // Ignore; each thread of a split loop reads its own flags.
  const int watch = uf.reports_fp_errors ? detail::fp_watch_mask() : 0;
  if (!watch) {
    cpu::parallel_split(layout, ptrs, [&loop](const iter::LoopLayout& sub, char* const* p) { loop.cpu(sub, p); });
  } else {
    std::atomic<int> status{0};
    cpu::parallel_split(layout, ptrs, [&loop, &status](const iter::LoopLayout& sub, char* const* p) {
      detail::clear_fp_status();
      loop.cpu(sub, p);
      status.fetch_or(detail::read_fp_status(), std::memory_order_relaxed);
    });
    if (const int flags = status.load() & watch) detail::report_fp_errors(flags, uf.display_name());
  }
  for (int k = 0; k < uf.nout; ++k) {
    if (loop_outs[static_cast<std::size_t>(k)].data() != outs[static_cast<std::size_t>(k)].data()) {
      detail::copy_elements(outs[static_cast<std::size_t>(k)], loop_outs[static_cast<std::size_t>(k)]);
    }
  }
  return outs;
}

}  // namespace cunp::ufunc
