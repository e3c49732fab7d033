// src/kernel/user_signature.cpp — ElementwiseKernel and ReductionKernel parameters
// (user_elementwise.hpp): parsing the parameter lists, type resolution.
#include "kernel/user_elementwise.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "runtime/runtime.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/error.hpp"
#include "cunp/stream.hpp"
#include "iter/layout.hpp"

namespace cunp::cuda::user {
namespace {

constexpr std::string_view kWhitespace = " \t\r\n\v\f";

std::string_view trim(std::string_view s) {
  const std::size_t b = s.find_first_not_of(kWhitespace);
  if (b == std::string_view::npos) return {};
  const std::size_t e = s.find_last_not_of(kWhitespace);
  return s.substr(b, e - b + 1);
}

std::vector<std::string_view> split_whitespace(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t b = s.find_first_not_of(kWhitespace, pos);
    if (b == std::string_view::npos) break;
    std::size_t e = s.find_first_of(kWhitespace, b);
    if (e == std::string_view::npos) e = s.size();
    out.push_back(s.substr(b, e - b));
    pos = e;
  }
  return out;
}

std::optional<DType> canonical_dtype(std::string_view type) {
  for (int d = 0; d < kNumDTypes; ++d)
    if (name(static_cast<DType>(d)) == type) return static_cast<DType>(d);
  return std::nullopt;
}

// Names the generated code uses for itself; parameters may not take them.
bool is_reserved_name(std::string_view n) {
  return n == "i" || n == "_ind" || n.starts_with("_cunp") || n.starts_with("cunp_ek");
}

void parse_list(std::string_view list, bool outputs, Signature& sig) {
  if (trim(list).empty()) return;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = list.find(',', pos);
    const std::string_view item =
        trim(list.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    const std::vector<std::string_view> tokens = split_whitespace(item);
    if (tokens.size() < 2)
      throw ValueError("Syntax error in ElementwiseKernel parameter '" + std::string(item) +
                       "': expected '[raw] TYPE NAME'");
    KernelParam p;
    for (std::size_t t = 0; t + 2 < tokens.size(); ++t) {
      if (tokens[t] == "raw")
        p.raw = true;
      else
        throw ValueError("Unknown keyword \"" + std::string(tokens[t]) + "\" in ElementwiseKernel parameter '" +
                         std::string(item) + "'");
    }
    const std::string_view type = tokens[tokens.size() - 2];
    const std::string_view pname = tokens.back();
    if (!is_identifier(pname))
      throw ValueError("Invalid ElementwiseKernel parameter name '" + std::string(pname) + "'");
    if (pname == "i") throw ValueError("Can not use 'i' as a parameter name");
    if (is_reserved_name(pname))
      throw ValueError("ElementwiseKernel parameter name '" + std::string(pname) + "' is reserved");
    for (const KernelParam& q : sig.params)
      if (q.name == pname)
        throw ValueError("Duplicate ElementwiseKernel parameter name '" + std::string(pname) + "'");
    p.name = std::string(pname);
    p.type = std::string(type);
    int placeholder = -1;
    if (std::optional<DType> dt = canonical_dtype(type); dt && type.size() > 1) {
      p.dtype = dt;
    } else {
      if (type.size() > 1) {
        bool names_dtype = false;
        try {
          dtype_from_name(type);
          names_dtype = true;
        } catch (const TypeError&) {
        }
        if (names_dtype)
          throw ValueError("Wrong type " + std::string(type) + " in ElementwiseKernel parameter '" +
                           std::string(item) + "': spell dtypes by their name, e.g. " +
                           std::string(name(dtype_from_name(type))));
      }
      if (!is_identifier(type))
        throw ValueError("Invalid type '" + std::string(type) + "' in ElementwiseKernel parameter '" +
                         std::string(item) + "'");
      const auto it = std::find(sig.placeholders.begin(), sig.placeholders.end(), type);
      placeholder = static_cast<int>(it - sig.placeholders.begin());
      if (it == sig.placeholders.end()) sig.placeholders.emplace_back(type);
    }
    sig.params.push_back(std::move(p));
    sig.placeholder.push_back(placeholder);
    if (outputs)
      ++sig.nout;
    else
      ++sig.nin;
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
}

std::string kernel_error_prefix(std::string_view kernel_name) {
  return "ElementwiseKernel '" + std::string(kernel_name) + "': ";
}

}  // namespace

bool is_identifier(std::string_view s) noexcept {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

Signature parse_signature(std::string_view in_params, std::string_view out_params) {
  Signature sig;
  parse_list(in_params, false, sig);
  parse_list(out_params, true, sig);
  return sig;
}

std::vector<DType> resolve_types(const Signature& sig, std::span<const ArgType> args,
                                 std::string_view kernel_name) {
  const std::size_t n = sig.params.size();
  if (args.size() != n) throw ValueError(kernel_error_prefix(kernel_name) + "internal: argument count");
  std::vector<std::optional<DType>> bound(sig.placeholders.size());
  std::vector<int> bound_by(sig.placeholders.size(), -1);

  auto bind_array = [&](std::size_t p) {
    const ArgType& a = args[p];
    const KernelParam& param = sig.params[p];
    const int ph = sig.placeholder[p];
    if (param.dtype) {
      if (a.dtype != *param.dtype)
        throw TypeError(kernel_error_prefix(kernel_name) + "Type is mismatched: argument '" + param.name +
                        "' is an array of " + std::string(name(a.dtype)) + ", the parameter is " +
                        std::string(name(*param.dtype)));
      return;
    }
    if (bound[ph]) {
      if (*bound[ph] != a.dtype)
        throw TypeError(kernel_error_prefix(kernel_name) + "Type is mismatched: argument '" + param.name +
                        "' is an array of " + std::string(name(a.dtype)) + " but type placeholder '" +
                        sig.placeholders[ph] + "' is " + std::string(name(*bound[ph])) + " (from argument '" +
                        sig.params[bound_by[ph]].name + "')");
      return;
    }
    bound[ph] = a.dtype;
    bound_by[ph] = static_cast<int>(p);
  };

  // Given outputs decide first, then input arrays (CuPy's order).
  for (std::size_t p = static_cast<std::size_t>(sig.nin); p < n; ++p) {
    if (args[p].kind == ArgType::Kind::Scalar)
      throw TypeError(kernel_error_prefix(kernel_name) + "Output arguments must be cunp.ndarray (argument '" +
                      sig.params[p].name + "')");
    if (args[p].kind == ArgType::Kind::Array) bind_array(p);
  }
  for (std::size_t p = 0; p < static_cast<std::size_t>(sig.nin); ++p)
    if (args[p].kind == ArgType::Kind::Array) bind_array(p);

  // Placeholders seen only with scalars: np.result_type of those scalars.
  for (std::size_t ph = 0; ph < bound.size(); ++ph) {
    if (bound[ph]) continue;
    std::vector<DType> strong;
    std::vector<WeakKind> weak;
    for (std::size_t p = 0; p < static_cast<std::size_t>(sig.nin); ++p) {
      if (sig.placeholder[p] != static_cast<int>(ph) || args[p].kind != ArgType::Kind::Scalar) continue;
      if (args[p].weak) {
        switch (kind(args[p].dtype)) {
          case DTypeKind::Bool: weak.push_back(WeakKind::Bool); break;
          case DTypeKind::SignedInt:
          case DTypeKind::UnsignedInt: weak.push_back(WeakKind::Int); break;
          case DTypeKind::Float: weak.push_back(WeakKind::Float); break;
          case DTypeKind::Complex: weak.push_back(WeakKind::Complex); break;
        }
      } else {
        strong.push_back(args[p].dtype);
      }
    }
    if (!strong.empty() || !weak.empty()) bound[ph] = result_type(strong, weak);
  }

  std::vector<DType> out(n);
  for (std::size_t p = 0; p < n; ++p) {
    const KernelParam& param = sig.params[p];
    if (param.dtype) {
      out[p] = *param.dtype;
      continue;
    }
    const int ph = sig.placeholder[p];
    if (!bound[ph]) {
      if (static_cast<int>(p) >= sig.nin)
        throw TypeError(kernel_error_prefix(kernel_name) + "cannot decide type placeholder '" +
                        sig.placeholders[ph] + "' of output '" + param.name +
                        "' from the inputs; pass the output array");
      throw TypeError(kernel_error_prefix(kernel_name) + "cannot decide type placeholder '" +
                      sig.placeholders[ph] + "' of argument '" + param.name + "'");
    }
    out[p] = *bound[ph];
  }
  return out;
}

std::vector<DType> resolve_arg_types(const Signature& sig, std::span<const KernelArg> args,
                                     std::string_view kernel_name, const std::string& prefix) {
  const int nargs = static_cast<int>(args.size());
  std::vector<ArgType> types(sig.params.size());
  for (int p = 0; p < nargs; ++p) {
    const KernelArg& a = args[static_cast<std::size_t>(p)];
    if (a.is_array()) {
      if (!a.array().defined())
        throw ValueError(prefix + "argument '" + sig.params[static_cast<std::size_t>(p)].name + "' is undefined");
      types[static_cast<std::size_t>(p)] = {ArgType::Kind::Array, a.array().dtype(), false};
    } else {
      types[static_cast<std::size_t>(p)] = {ArgType::Kind::Scalar, a.scalar().dtype(), a.scalar().weak()};
    }
  }
  std::vector<DType> dtypes = resolve_types(sig, types, kernel_name);
  for (int p = 0; p < nargs; ++p) {
    const KernelArg& a = args[static_cast<std::size_t>(p)];
    const DType dt = dtypes[static_cast<std::size_t>(p)];
    if (!a.is_array() && a.scalar().weak() && !a.scalar().fits(dt))
      throw OverflowError("Python integer " + a.scalar().str() + " out of bounds for " + std::string(name(dt)));
  }
  return dtypes;
}

std::string_view kernel_type_name(DType dt) noexcept {
  switch (dt) {
    case DType::Bool: return "bool";
    case DType::Int8: return "signed char";
    case DType::UInt8: return "unsigned char";
    case DType::Int16: return "short";
    case DType::UInt16: return "unsigned short";
    case DType::Int32: return "int";
    case DType::UInt32: return "unsigned int";
    case DType::Int64: return "long long";
    case DType::UInt64: return "unsigned long long";
    case DType::Float16: return "float16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "complex<float>";
    case DType::Complex128: return "complex<double>";
  }
  return "void";
}

}  // namespace cunp::cuda::user
