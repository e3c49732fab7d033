// src/kernel/raw_signature.cpp — see raw_signature.hpp.
//
// Note [Reading kernel declarations]: a RawKernel converts a Python int to the
// parameter's declared C type (`int n` takes 4 bytes, `size_t n` 8), so cunp needs the
// parameter types before the launch. The driver knows only sizes and offset
// (cudaFuncGetParamInfo), and only once a GPU has loaded the kernel, so the types come
// from the source: a small tokenizer (comments and literals skipped), object-like
// macros and simple aliases expanded, the first `__global__` declaration of the name
// found, its template parameters replaced by the name expression's arguments, and each
// parameter's type classified by a table of C spellings. This is not a C++ parser; it
// reads the declarations people write. Whatever it cannot resolve (a struct, a type
// from an included header) is kind Other, and the launch checks every parameter's size
// against the driver's layout, so a wrong guess is an error, never corrupt arguments.
#include "kernel/raw_signature.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <unordered_map>
#include <unordered_set>

namespace cunp::cuda::raw {
namespace {

using Tokens = std::vector<std::string>;

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool is_word(const std::string& t) {
  return !t.empty() && (ident_char(t[0]) || (t[0] == '.' && t.size() > 1));
}
bool is_ident(const std::string& t) { return !t.empty() && ident_start(t[0]); }

// Blanks comments out (keeping newlines, so lines stay lines) and leaves literals as they are.
std::string strip_comments(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < s.size() && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') out.push_back('\n');
        ++i;
      }
      i += 2;
      out.push_back(' ');
    } else if (c == '"' || c == '\'') {
      out.push_back(c);
      ++i;
      while (i < s.size() && s[i] != c && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < s.size()) out.push_back(s[i++]);
        out.push_back(s[i++]);
      }
      if (i < s.size() && s[i] == c) out.push_back(s[i++]);
    } else {
      out.push_back(c);
      ++i;
    }
  }
  return out;
}

Tokens tokenize(std::string_view s) {
  Tokens out;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
    } else if (ident_start(c)) {
      const std::size_t b = i;
      while (i < s.size() && ident_char(s[i])) ++i;
      out.emplace_back(s.substr(b, i - b));
    } else if ((c >= '0' && c <= '9') ||
               (c == '.' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9')) {
      const std::size_t b = i;
      while (i < s.size() &&
             (ident_char(s[i]) || s[i] == '.' || s[i] == '\'' ||
              ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      out.emplace_back(s.substr(b, i - b));
    } else if (c == '"' || c == '\'') {
      const std::size_t b = i++;
      while (i < s.size() && s[i] != c) i += s[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, s.size());
      out.emplace_back(s.substr(b, i - b));
    } else if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      out.emplace_back("::");
      i += 2;
    } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '>') {
      out.emplace_back("->");
      i += 2;
    } else {
      out.emplace_back(1, c);
      ++i;
    }
  }
  return out;
}

using Macros = std::unordered_map<std::string, Tokens>;

// Splits the source into preprocessor directives (object-like #defines are kept) and
// code, which is tokenized.
Tokens preprocess(std::string_view source, Macros& macros) {
  const std::string text = strip_comments(source);
  std::string code;
  code.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    // One logical line: backslash-newline continues it.
    std::string line;
    while (pos < text.size()) {
      const std::size_t nl = text.find('\n', pos);
      const std::size_t end = nl == std::string::npos ? text.size() : nl;
      std::string_view part(text.data() + pos, end - pos);
      pos = end == text.size() ? end : end + 1;
      if (!part.empty() && part.back() == '\r') part.remove_suffix(1);
      if (!part.empty() && part.back() == '\\') {
        line.append(part.substr(0, part.size() - 1));
        line.push_back(' ');
        continue;
      }
      line.append(part);
      break;
    }
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] != '#') {
      code += line;
      code += '\n';
      continue;
    }
    const Tokens directive = tokenize(std::string_view(line).substr(first + 1));
    if (directive.size() >= 2 && directive[0] == "define" && is_ident(directive[1])) {
      // Object-like only: a '(' right after the name makes a function-like macro.
      const std::size_t name_at = line.find(directive[1], line.find("define", first) + 6);
      const std::size_t after = name_at + directive[1].size();
      if (after < line.size() && line[after] == '(') continue;
      macros[directive[1]] = tokenize(std::string_view(line).substr(after));
    } else if (directive.size() >= 2 && directive[0] == "undef") {
      macros.erase(directive[1]);
    }
  }
  return tokenize(code);
}

void add_option_macros(std::span<const std::string> options, Macros& macros) {
  for (std::size_t k = 0; k < options.size(); ++k) {
    std::string_view o = options[k];
    std::string_view def;
    if (o.starts_with("--define-macro=")) {
      def = o.substr(15);
    } else if (o == "-D" || o == "--define-macro") {
      if (k + 1 < options.size()) def = options[++k];
    } else if (o.starts_with("-D")) {
      def = o.substr(2);
    } else {
      continue;
    }
    const std::size_t eq = def.find('=');
    const std::string name(def.substr(0, eq));
    if (!is_ident(name)) continue;
    macros[name] = eq == std::string_view::npos ? Tokens{"1"} : tokenize(def.substr(eq + 1));
  }
}

void expand_into(const std::string& tok, const Macros& macros,
                 std::unordered_set<std::string>& active, Tokens& out, int depth) {
  const auto it = is_ident(tok) ? macros.find(tok) : macros.end();
  if (it == macros.end() || active.count(tok) != 0 || depth > 32) {
    out.push_back(tok);
    return;
  }
  active.insert(tok);
  for (const std::string& t : it->second) expand_into(t, macros, active, out, depth + 1);
  active.erase(tok);
}

Tokens expand(const Tokens& tokens, const Macros& macros) {
  if (macros.empty()) return tokens;
  Tokens out;
  out.reserve(tokens.size());
  std::unordered_set<std::string> active;
  for (const std::string& t : tokens) expand_into(t, macros, active, out, 0);
  return out;
}

// The index of the bracket closing the one at `open` (matching "(" ")", "<" ">",
// "[" "]", "{" "}"), or tokens.size().
std::size_t matching(const Tokens& t, std::size_t open) {
  const std::string& o = t[open];
  const std::string c = o == "(" ? ")" : o == "<" ? ">" : o == "[" ? "]" : "}";
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i] == o)
      ++depth;
    else if (t[i] == c && --depth == 0)
      return i;
    // Inside angle brackets, round brackets nest independently.
    else if (o == "<" && t[i] == "(")
      i = matching(t, i);
    else if (o == "<" && (t[i] == ";" || t[i] == "{"))
      return t.size();
  }
  return t.size();
}

// Splits tokens [b, e) at commas outside any brackets.
std::vector<Tokens> split_commas(const Tokens& t, std::size_t b, std::size_t e) {
  std::vector<Tokens> out;
  Tokens cur;
  int depth = 0;
  for (std::size_t i = b; i < e; ++i) {
    const std::string& x = t[i];
    if (x == "(" || x == "[" || x == "{" || x == "<") ++depth;
    if (x == ")" || x == "]" || x == "}" || x == ">") --depth;
    if (x == "," && depth == 0) {
      out.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    cur.push_back(x);
  }
  if (!cur.empty() || !out.empty()) out.push_back(std::move(cur));
  return out;
}

using Aliases = std::unordered_map<std::string, Tokens>;

// typedef T name;  using name = T;  (not function-pointer, struct or template aliases)
Aliases collect_aliases(const Tokens& t) {
  Aliases out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == "typedef") {
      std::size_t e = i + 1;
      bool simple = true;
      while (e < t.size() && t[e] != ";") {
        if (t[e] == "(" || t[e] == "{" || t[e] == ",") simple = false;
        ++e;
      }
      if (simple && e < t.size() && e >= i + 3 && is_ident(t[e - 1]))
        out[t[e - 1]] = Tokens(t.begin() + static_cast<std::ptrdiff_t>(i + 1),
                               t.begin() + static_cast<std::ptrdiff_t>(e - 1));
      i = e;
    } else if (t[i] == "using" && i + 2 < t.size() && is_ident(t[i + 1]) && t[i + 2] == "=" &&
               !(i > 0 && t[i - 1] == ">")) {
      std::size_t e = i + 3;
      while (e < t.size() && t[e] != ";" && t[e] != "{") ++e;
      if (e < t.size() && t[e] == ";" && e > i + 3)
        out[t[i + 1]] = Tokens(t.begin() + static_cast<std::ptrdiff_t>(i + 3),
                               t.begin() + static_cast<std::ptrdiff_t>(e));
      i = e;
    }
  }
  return out;
}

const std::unordered_set<std::string>& qualifier_words() {
  static const std::unordered_set<std::string> words = {
      "const",      "volatile",    "__restrict__", "__restrict", "restrict", "__grid_constant__",
      "struct",     "class",       "union",        "enum",       "typename", "register",
      "__device__", "__constant__"};
  return words;
}
const std::unordered_set<std::string>& type_words() {
  static const std::unordered_set<std::string> words = {
      "void",   "bool",     "char", "short",   "int",     "long",     "float",   "double",
      "signed", "unsigned", "auto", "wchar_t", "char8_t", "char16_t", "char32_t"};
  return words;
}

// Text of a token sequence as a declaration shows it: "const float* __restrict__".
std::string join(const Tokens& t) {
  std::string s;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i > 0) {
      const std::string& a = t[i - 1];
      const std::string& b = t[i];
      if ((is_word(a) && is_word(b)) ||
          ((a == "*" || a == "&" || a == ">" || a == ",") && is_word(b)))
        s += ' ';
    }
    s += t[i];
  }
  return s;
}

// Expands aliases and drops namespace qualifiers (cuda::std::int32_t -> int32_t).
Tokens normalize(const Tokens& in, const Aliases& aliases, int depth = 0) {
  Tokens out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == "::") continue;
    if (i + 1 < in.size() && in[i + 1] == "::" && is_ident(in[i])) continue;  // a qualifier
    const auto it = is_ident(in[i]) ? aliases.find(in[i]) : aliases.end();
    if (it != aliases.end() && depth < 8) {
      const Tokens sub = normalize(it->second, aliases, depth + 1);
      out.insert(out.end(), sub.begin(), sub.end());
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

struct TypeInfo {
  RawParamKind kind = RawParamKind::Other;
  std::optional<DType> dtype;
  std::size_t size = 0;
};

TypeInfo scalar(DType dt) { return {RawParamKind::Scalar, dt, itemsize(dt)}; }

std::optional<TypeInfo> named_type(const std::string& n) {
  static const std::unordered_map<std::string, DType> table = {
      {"bool", DType::Bool},           {"int8_t", DType::Int8},
      {"uint8_t", DType::UInt8},       {"int16_t", DType::Int16},
      {"uint16_t", DType::UInt16},     {"int32_t", DType::Int32},
      {"uint32_t", DType::UInt32},     {"int64_t", DType::Int64},
      {"uint64_t", DType::UInt64},     {"size_t", DType::UInt64},
      {"uintptr_t", DType::UInt64},    {"uintmax_t", DType::UInt64},
      {"ptrdiff_t", DType::Int64},     {"ssize_t", DType::Int64},
      {"intptr_t", DType::Int64},      {"intmax_t", DType::Int64},
      {"float", DType::Float32},       {"double", DType::Float64},
      {"half", DType::Float16},        {"__half", DType::Float16},
      {"float16", DType::Float16},     {"cuFloatComplex", DType::Complex64},
      {"cuComplex", DType::Complex64}, {"cuDoubleComplex", DType::Complex128},
  };
  if (const auto it = table.find(n); it != table.end()) return scalar(it->second);
  // CUDA's vector types: float4, uint2, longlong3, ... (no dtype; NumPy scalars of their size pass)
  static const std::array<std::pair<std::string_view, std::size_t>, 12> bases = {{
      {"char", 1},
      {"uchar", 1},
      {"short", 2},
      {"ushort", 2},
      {"int", 4},
      {"uint", 4},
      {"longlong", 8},
      {"ulonglong", 8},
      {"long", 8},
      {"ulong", 8},
      {"float", 4},
      {"double", 8},
  }};
  if (n.size() >= 2 && n.back() >= '1' && n.back() <= '4') {
    const std::string_view stem(n.data(), n.size() - 1);
    for (const auto& [b, sz] : bases)
      if (stem == b)
        return TypeInfo{RawParamKind::Other, std::nullopt,
                        sz * static_cast<std::size_t>(n.back() - '0')};
  }
  static const std::unordered_map<std::string, std::size_t> other = {
      {"half2", 4},       {"__half2", 4},        {"__nv_bfloat16", 2},
      {"nv_bfloat16", 2}, {"__nv_bfloat162", 4}, {"nv_bfloat162", 4}};
  if (const auto it = other.find(n); it != other.end())
    return TypeInfo{RawParamKind::Other, std::nullopt, it->second};
  return std::nullopt;
}

TypeInfo classify_tokens(const Tokens& declared, const Aliases& aliases) {
  const Tokens t = normalize(declared, aliases);
  int angle = 0;
  for (const std::string& x : t) {
    if (x == "<") ++angle;
    if (x == ">") --angle;
    if (angle == 0 && (x == "*" || x == "[")) return {RawParamKind::Pointer, std::nullopt, 8};
    if (angle == 0 && x == "&") return {};
  }
  Tokens core;
  for (const std::string& x : t)
    if (qualifier_words().count(x) == 0) core.push_back(x);
  if (core.empty()) return {};
  // complex<float>, thrust::complex<double>, cuda::std::complex<float>
  if (core.size() == 4 && core[0] == "complex" && core[1] == "<" && core[3] == ">") {
    if (core[2] == "float") return scalar(DType::Complex64);
    if (core[2] == "double") return scalar(DType::Complex128);
    return {};
  }
  // Integer keyword combinations: unsigned long long int, signed char, short, ...
  static const std::unordered_set<std::string> int_words = {"signed", "unsigned", "char",
                                                            "short",  "int",      "long"};
  if (std::all_of(core.begin(), core.end(),
                  [](const std::string& x) { return int_words.count(x) != 0; })) {
    const bool is_unsigned = std::count(core.begin(), core.end(), "unsigned") != 0;
    const bool is_char = std::count(core.begin(), core.end(), "char") != 0;
    const bool is_short = std::count(core.begin(), core.end(), "short") != 0;
    const bool is_long =
        std::count(core.begin(), core.end(), "long") != 0;  // long is 8 bytes (LP64)
    if (is_char) return scalar(is_unsigned ? DType::UInt8 : DType::Int8);
    if (is_short) return scalar(is_unsigned ? DType::UInt16 : DType::Int16);
    if (is_long) return scalar(is_unsigned ? DType::UInt64 : DType::Int64);
    return scalar(is_unsigned ? DType::UInt32 : DType::Int32);
  }
  if (core.size() == 1)
    if (std::optional<TypeInfo> info = named_type(core[0])) return *info;
  return {};
}

// A template parameter: its name, whether it is a type, its default.
struct TemplateParam {
  std::string name;
  Tokens default_value;
  bool pack = false;
};

std::vector<TemplateParam> template_params(const Tokens& t, std::size_t open, std::size_t close) {
  std::vector<TemplateParam> out;
  for (Tokens& p : split_commas(t, open + 1, close)) {
    TemplateParam tp;
    const auto eq = std::find(p.begin(), p.end(), "=");
    tp.default_value.assign(eq == p.end() ? p.end() : eq + 1, p.end());
    p.erase(eq, p.end());
    tp.pack = std::find(p.begin(), p.end(), ".") != p.end();
    for (auto it = p.rbegin(); it != p.rend(); ++it)
      if (is_ident(*it) && type_words().count(*it) == 0 && qualifier_words().count(*it) == 0) {
        tp.name = *it;
        break;
      }
    out.push_back(std::move(tp));
  }
  return out;
}

Tokens substitute(const Tokens& t, const std::unordered_map<std::string, Tokens>& map) {
  if (map.empty()) return t;
  Tokens out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto it = map.find(t[i]);
    const bool member = i > 0 && (t[i - 1] == "::" || t[i - 1] == "." || t[i - 1] == "->");
    if (it != map.end() && !member)
      out.insert(out.end(), it->second.begin(), it->second.end());
    else
      out.push_back(t[i]);
  }
  return out;
}

// The kernel name split into its base identifier and template arguments.
struct KernelName {
  std::string base;
  std::optional<std::vector<Tokens>> template_args;
};

KernelName split_name(std::string_view name) {
  const Tokens t = tokenize(name);
  KernelName out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == "<") {
      const std::size_t close = matching(t, i);
      out.template_args = split_commas(t, i + 1, std::min(close, t.size()));
      break;
    }
    if (is_ident(t[i])) out.base = t[i];
  }
  return out;
}

RawKernelParam make_param(Tokens p, const std::unordered_map<std::string, Tokens>& targs,
                          const Aliases& aliases) {
  // Default values, attributes.
  int depth = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == "(" || p[i] == "<" || p[i] == "[") ++depth;
    if (p[i] == ")" || p[i] == ">" || p[i] == "]") --depth;
    if (p[i] == "=" && depth == 0) {
      p.resize(i);
      break;
    }
  }
  for (std::size_t i = 0; i < p.size();) {
    if ((p[i] == "__attribute__" || p[i] == "alignas" || p[i] == "__align__") && i + 1 < p.size() &&
        p[i + 1] == "(") {
      const std::size_t close = matching(p, i + 1);
      p.erase(p.begin() + static_cast<std::ptrdiff_t>(i),
              p.begin() + static_cast<std::ptrdiff_t>(std::min(close + 1, p.size())));
    } else if (p[i] == "[" && i + 1 < p.size() && p[i + 1] == "[") {
      const std::size_t close = matching(p, i);
      p.erase(p.begin() + static_cast<std::ptrdiff_t>(i),
              p.begin() + static_cast<std::ptrdiff_t>(std::min(close + 1, p.size())));
    } else {
      ++i;
    }
  }
  // Array declarators decay to pointers.
  bool array = false;
  while (!p.empty() && p.back() == "]") {
    std::size_t open = p.size() - 1;
    while (open > 0 && p[open] != "[") --open;
    p.resize(open);
    array = true;
  }
  RawKernelParam param;
  if (p.size() >= 2 && is_ident(p.back()) && type_words().count(p.back()) == 0 &&
      qualifier_words().count(p.back()) == 0 && p[p.size() - 2] != "::") {
    const bool type_left = std::any_of(p.begin(), p.end() - 1, [](const std::string& x) {
      return qualifier_words().count(x) == 0;
    });
    if (type_left) {
      param.name = p.back();
      p.pop_back();
    }
  }
  Tokens type = substitute(p, targs);
  if (array) type.push_back("*");
  param.type = join(type);
  const TypeInfo info = classify_tokens(type, aliases);
  param.kind = info.kind;
  param.dtype = info.dtype;
  param.size = info.size;
  return param;
}

}  // namespace

RawKernelParam classify_type(std::string_view type) {
  const Tokens t = tokenize(type);
  const TypeInfo info = classify_tokens(t, {});
  RawKernelParam p;
  p.type = join(t);
  p.kind = info.kind;
  p.dtype = info.dtype;
  p.size = info.size;
  return p;
}

std::optional<std::vector<RawKernelParam>> parse_kernel_params(
    std::string_view source, std::string_view name, std::span<const std::string> options) {
  const KernelName kname = split_name(name);
  if (kname.base.empty()) return std::nullopt;
  Macros macros;
  add_option_macros(options, macros);
  const Tokens raw_tokens = preprocess(source, macros);
  const Tokens t = expand(raw_tokens, macros);
  const Aliases aliases = collect_aliases(t);

  // Candidates: `base (` whose declaration head (back to the previous ; { or }) says __global__.
  struct Candidate {
    std::size_t at;
    std::optional<std::pair<std::size_t, std::size_t>> template_list;  // "<" and ">" indices
  };
  std::optional<Candidate> best, fallback;
  for (std::size_t j = 0; j + 1 < t.size(); ++j) {
    if (t[j] != kname.base || t[j + 1] != "(") continue;
    if (j > 0 && (t[j - 1] == "." || t[j - 1] == "->")) continue;
    std::size_t h = j;
    bool global = false;
    std::optional<std::pair<std::size_t, std::size_t>> tlist;
    while (h > 0) {
      const std::string& x = t[h - 1];
      if (x == ";" || x == "{" || x == "}") break;
      if (x == "__global__") global = true;
      --h;
    }
    if (!global) continue;
    for (std::size_t k = h; k < j; ++k)
      if (t[k] == "template" && k + 1 < j && t[k + 1] == "<") {
        tlist = std::make_pair(k + 1, matching(t, k + 1));
        break;
      }
    const Candidate c{j, tlist};
    if (tlist.has_value() == kname.template_args.has_value()) {
      best = c;
      break;
    }
    if (!fallback) fallback = c;
  }
  if (!best) best = fallback;
  if (!best) return std::nullopt;

  std::unordered_map<std::string, Tokens> targs;
  if (best->template_list && kname.template_args) {
    const auto [open, close] = *best->template_list;
    const std::vector<TemplateParam> tparams = template_params(t, open, std::min(close, t.size()));
    const std::vector<Tokens>& args = *kname.template_args;
    for (std::size_t k = 0; k < tparams.size(); ++k) {
      if (tparams[k].pack || tparams[k].name.empty()) break;
      if (k < args.size())
        targs[tparams[k].name] = args[k];
      else if (!tparams[k].default_value.empty())
        targs[tparams[k].name] = substitute(tparams[k].default_value, targs);
    }
  }

  const std::size_t open = best->at + 1;
  const std::size_t close = matching(t, open);
  if (close >= t.size()) return std::nullopt;
  std::vector<RawKernelParam> params;
  std::vector<Tokens> list = split_commas(t, open + 1, close);
  if (list.size() == 1 && (list[0].empty() || (list[0].size() == 1 && list[0][0] == "void")))
    list.clear();
  for (Tokens& p : list) params.push_back(make_param(std::move(p), targs, aliases));
  return params;
}

}  // namespace cunp::cuda::raw
