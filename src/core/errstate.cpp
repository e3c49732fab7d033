// src/core/errstate.cpp — the per-thread floating-point error modes, the FPU status
// flags, and the warning handler (include/cunp/errstate.hpp).
#include "cunp/errstate.hpp"

#include <cfenv>
#include <cstdio>

#include "cunp/error.hpp"

namespace cunp {
namespace {

int watch_of(const ErrorState& s) noexcept {
  return (s.divide != ErrorMode::Ignore ? FpDivide : 0) | (s.over != ErrorMode::Ignore ? FpOverflow : 0) |
         (s.under != ErrorMode::Ignore ? FpUnderflow : 0) | (s.invalid != ErrorMode::Ignore ? FpInvalid : 0);
}

struct ThreadState {
  ErrorState modes;
  int watch = watch_of(ErrorState{});
};

ThreadState& thread_state() noexcept {
  thread_local ThreadState s;
  return s;
}

void default_handler(WarningKind kind, ErrorMode mode, int, const std::string& message) {
  static const char* kNames[] = {"RuntimeWarning", "ComplexWarning", "DeprecationWarning"};
  if (mode == ErrorMode::Print || mode == ErrorMode::Log || mode == ErrorMode::Call) {
    std::fprintf(stdout, "Warning: %s\n", message.c_str());
  } else {
    std::fprintf(stderr, "cunp: %s: %s\n", kNames[static_cast<int>(kind)], message.c_str());
  }
}

WarningHandler& handler() noexcept {
  static WarningHandler h = &default_handler;
  return h;
}

}  // namespace

ErrorState geterr() noexcept { return thread_state().modes; }

ErrorState seterr(const ErrorState& state) noexcept {
  ThreadState& t = thread_state();
  const ErrorState old = t.modes;
  t.modes = state;
  t.watch = watch_of(state);
  return old;
}

ErrorMode parse_error_mode(const std::string& text) {
  if (text == "ignore") return ErrorMode::Ignore;
  if (text == "warn") return ErrorMode::Warn;
  if (text == "raise") return ErrorMode::Raise;
  if (text == "call") return ErrorMode::Call;
  if (text == "print") return ErrorMode::Print;
  if (text == "log") return ErrorMode::Log;
  throw ValueError("invalid error mode '" + text + "': expected one of 'ignore', 'warn', 'raise', 'call', "
                   "'print', 'log'");
}

const char* name(ErrorMode mode) noexcept {
  static const char* kNames[] = {"ignore", "warn", "raise", "call", "print", "log"};
  return kNames[static_cast<int>(mode)];
}

WarningHandler set_warning_handler(WarningHandler h) noexcept {
  WarningHandler old = handler();
  handler() = h ? h : &default_handler;
  return old;
}

void warn(WarningKind kind, const std::string& message) { handler()(kind, ErrorMode::Warn, 0, message); }

namespace detail {

int fp_watch_mask() noexcept { return thread_state().watch; }

void clear_fp_status() noexcept { std::feclearexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID); }

int read_fp_status() noexcept {
  const int f = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
  return ((f & FE_DIVBYZERO) ? FpDivide : 0) | ((f & FE_OVERFLOW) ? FpOverflow : 0) |
         ((f & FE_UNDERFLOW) ? FpUnderflow : 0) | ((f & FE_INVALID) ? FpInvalid : 0);
}

void report_fp_errors(int flags, const char* what) {
  const ErrorState& s = thread_state().modes;
  struct Kind {
    int bit;
    ErrorMode mode;
    const char* text;
  };
  const Kind kinds[] = {{FpDivide, s.divide, "divide by zero"},
                        {FpOverflow, s.over, "overflow"},
                        {FpUnderflow, s.under, "underflow"},
                        {FpInvalid, s.invalid, "invalid value"}};
  for (const Kind& k : kinds) {
    if (!(flags & k.bit) || k.mode == ErrorMode::Ignore) continue;
    const std::string message = std::string(k.text) + " encountered in " + what;
    if (k.mode == ErrorMode::Raise) throw FloatingPointError(message);
    handler()(WarningKind::Runtime, k.mode, k.bit, message);
  }
}

}  // namespace detail
}  // namespace cunp
