// src/ufunc/ufunc.hpp — the ufunc registry: every elementwise operation, its loops
// (NumPy's type signatures, in NumPy's order) and how each loop runs on the CPU. The
// GPU path generates its kernels from the same entries (op functor name + dtypes).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cunp/dtype.hpp"
#include "iter/layout.hpp"

namespace cunp::ufunc {

// Four inputs: scipy.special.eval_jacobi(n, alpha, beta, x).
inline constexpr int kMaxIn = 4;
// Four outputs: scipy.special.ellipj(u, m) -> sn, cn, dn, ph.
inline constexpr int kMaxOut = 4;

// A CPU loop over `layout`; ptrs[k] is operand k's element [0...] with outputs first,
// then inputs, every operand already in the loop's dtypes (scalars: stride 0).
using CpuLoop = void (*)(const iter::LoopLayout& layout, char* const* ptrs);

// One type signature of a ufunc, e.g. add's "ff->f".
struct Loop {
  std::array<DType, kMaxIn> in{};
  std::array<DType, kMaxOut> out{};
  CpuLoop cpu = nullptr;
  // The functor of this loop when it is not the ufunc's (a functor type with a
  // `static constexpr const char* kName`, e.g. the float16 loops of nextafter).
  const char* functor = nullptr;
  std::string signature(int nin, int nout) const;  // NumPy's spelling: "ff->f"
};

// How the loop for given operand dtypes is chosen.
enum class Resolution : std::uint8_t {
  // NumPy's default for most ufuncs: find the first loop whose inputs every operand
  // (after NEP 50 promotion of all inputs to one common dtype) casts to safely.
  CommonDType,
  // Each operand is matched on its own dtype (ufuncs whose inputs differ in kind,
  // e.g. ldexp "fi->f").
  PerOperand,
  // Only a loop of exactly the common dtype (NumPy's uniform-operation resolver:
  // sign(bool), gcd(bool), positive(bool) are TypeErrors though int8 loops exist).
  Uniform,
  // true_divide: integer and bool inputs compute in float64 (NumPy's true-division
  // resolver), others as CommonDType.
  TrueDivide,
};

// Identity of the reduction (for reduce; empty when the ufunc has none).
enum class Identity : std::uint8_t { None, Zero, One, MinusOne, True, False, MinusInf, PlusInf };

// Ufuncs the call path treats specially (NumPy's own rules for them), recorded once at
// definition so the hot path compares an enum, never a name.
enum class Role : std::uint8_t { None, Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, Power, Logical };

// The namespace a ufunc belongs to: NumPy's (cunp.add) or scipy.special's
// (cunpx.scipy.special.erf, cunp::special::erf). One table holds both, so special
// functions get broadcasting, out=, dtype resolution and kernels like every ufunc.
enum class Space : std::uint8_t { NumPy, Special };

struct Ufunc {
  std::string name;     // NumPy's name: "add", "true_divide", "isnan"
  int nin = 1;
  int nout = 1;
  // The scalar functor in src/ops, spelled as generated CUDA source names it
  // ("cunp::ops::add"), and the embedded header that defines it ("ufunc_arith.h").
  std::string functor;
  std::string header;
  Resolution resolution = Resolution::CommonDType;
  Identity identity = Identity::None;
  Role role = Role::None;
  Space space = Space::NumPy;
  // Whether the cpu loops' floating-point status is reported (np.errstate). NumPy
  // clears it after comparisons, logical and classification ufuncs, maximum/minimum
  // and selections, whose NaN operands raise FE_INVALID without being errors.
  bool reports_fp_errors = true;
  std::vector<Loop> loops;

  // The name NumPy's messages use ("divide" for true_divide).
  const char* display_name() const noexcept { return name == "true_divide" ? "divide" : name.c_str(); }

  bool is_comparison() const noexcept { return role >= Role::Equal && role <= Role::GreaterEqual; }

  // The functor generated code calls for `loop`.
  const char* functor_for(const Loop& loop) const noexcept { return loop.functor ? loop.functor : functor.c_str(); }
};

// Every registered ufunc, by NumPy name (aliases included: "divide" -> true_divide).
const Ufunc& get(std::string_view name);  // KeyError-like ValueError when unknown
const Ufunc* find(std::string_view name) noexcept;
std::vector<const Ufunc*> all();

// The compute type of a loop dtype: what the functor receives. float16 loops compute
// in float32, as NumPy does; every other dtype computes as itself.
constexpr DType compute_dtype(DType dt) noexcept { return dt == DType::Float16 ? DType::Float32 : dt; }

}  // namespace cunp::ufunc
