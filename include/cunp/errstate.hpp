// cunp/errstate.hpp — NumPy's floating-point error handling (np.seterr, np.geterr,
// np.errstate) and the warnings the library emits (RuntimeWarning, ComplexWarning).
//
// Note [Floating-point status]: on the cpu device a ufunc whose error modes are not all
// Ignore clears the FPU status flags before its loop and reads them after it (per
// thread when the loop is split), as NumPy does; integer loops raise the same flags for
// division by zero (src/ops/common.h). With every mode Ignore nothing is read. GPU
// kernels report nothing: reading a status word written by a kernel would cost a
// device synchronization per call (CuPy emits none either; docs/differences.md).
#pragma once

#include <cstdint>
#include <string>

namespace cunp {

// What happens when a floating-point error is detected (NumPy's seterr modes).
enum class ErrorMode : std::uint8_t { Ignore, Warn, Raise, Call, Print, Log };

// One mode per kind of error, NumPy's defaults.
struct ErrorState {
  ErrorMode divide = ErrorMode::Warn;
  ErrorMode over = ErrorMode::Warn;
  ErrorMode under = ErrorMode::Ignore;
  ErrorMode invalid = ErrorMode::Warn;
  friend bool operator==(const ErrorState&, const ErrorState&) = default;
};

// NumPy's error flag bits (seterrcall's `flag` argument).
enum FpError : int { FpDivide = 1, FpOverflow = 2, FpUnderflow = 4, FpInvalid = 8 };

// The calling thread's modes (np.geterr) and replacing them (np.seterr; returns the old).
ErrorState geterr() noexcept;
ErrorState seterr(const ErrorState& state) noexcept;

// Sets the modes for a scope (np.errstate).
class ErrStateGuard {
 public:
  explicit ErrStateGuard(const ErrorState& state) : saved_(seterr(state)) {}
  ~ErrStateGuard() { seterr(saved_); }
  ErrStateGuard(const ErrStateGuard&) = delete;
  ErrStateGuard& operator=(const ErrStateGuard&) = delete;

 private:
  ErrorState saved_;
};

ErrorMode parse_error_mode(const std::string& text);  // "ignore", "warn", ...; ValueError otherwise
const char* name(ErrorMode mode) noexcept;

// The categories of warnings the library emits (Python: RuntimeWarning,
// numpy.exceptions.ComplexWarning, DeprecationWarning).
enum class WarningKind : std::uint8_t { Runtime, Complex, Deprecation };

// Receives every warning, and the Call/Print/Log modes of floating-point errors
// (`flags` is the FpError bit, 0 for other warnings). The default writes to stderr;
// the Python package installs one that calls warnings.warn and the seterrcall object.
// A handler may throw (a warning turned into an error).
using WarningHandler = void (*)(WarningKind kind, ErrorMode mode, int flags, const std::string& message);
WarningHandler set_warning_handler(WarningHandler handler) noexcept;

// Emits a warning through the handler.
void warn(WarningKind kind, const std::string& message);

namespace detail {
// The FpError bits whose mode is not Ignore (0: nothing to check), read on the hot path.
int fp_watch_mask() noexcept;
// Clears and reads the FPU status flags as FpError bits.
void clear_fp_status() noexcept;
int read_fp_status() noexcept;
// Reports the errors `flags` of operation `what` ("divide") under the current modes:
// FloatingPointError for Raise, the handler otherwise. NumPy's order: divide, over,
// under, invalid.
void report_fp_errors(int flags, const char* what);
}  // namespace detail

}  // namespace cunp
