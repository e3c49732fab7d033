// src/linalg/einsum.cpp — np.einsum over the other products: repeated labels become
// strided diagonal views, labels nobody else needs are summed by the reductions, and
// the operands are contracted pairwise, left to right, as batched matmuls (or plain
// broadcasting multiplies when nothing is summed).
#include <algorithm>
#include <array>
#include <string>

#include "cunp/error.hpp"
#include "cunp/linalg.hpp"
#include "cunp/reduce.hpp"
#include "cunp/ufunc.hpp"

namespace cunp {
namespace {

// Note [Einsum labels]: a letter is a label 0..51 ('A'..'Z', then 'a'..'z', so label
// order is NumPy's sort order for the implicit output); the broadcast dimensions of an
// ellipsis are labels 52 + j, right-aligned over the longest ellipsis of any operand.
constexpr int kLetters = 52;

int letter_label(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}
char label_char(int l) { return static_cast<char>(l < 26 ? 'A' + l : 'a' + (l - 26)); }

struct Term {
  std::vector<int> letters;  // the letters, with -1 where the ellipsis stands
  bool ellipsis = false;
};

Term parse_term(std::string_view s) {
  Term t;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (s.substr(i, 3) != "...")
        throw ValueError(
            "einstein sum subscripts string contains a '.' that is not part of an ellipsis "
            "('...')");
      if (t.ellipsis)
        throw ValueError("einstein sum subscripts string contains more than one ellipsis");
      t.ellipsis = true;
      t.letters.push_back(-1);
      i += 2;
      continue;
    }
    const int l = letter_label(c);
    if (l < 0)
      throw ValueError(std::string("invalid subscript '") + c +
                       "' in einstein sum subscripts string, subscripts must be letters");
    t.letters.push_back(l);
  }
  return t;
}

std::vector<int> expand(const Term& t, int nell, int max_ell) {
  std::vector<int> labels;
  for (int l : t.letters) {
    if (l >= 0) {
      labels.push_back(l);
    } else {
      for (int j = max_ell - nell; j < max_ell; ++j) labels.push_back(kLetters + j);
    }
  }
  return labels;
}

struct Labeled {
  ndarray x;
  std::vector<int> labels;  // one per axis, distinct
};

// Repeated labels of one operand: the diagonal, as a strided view.
Labeled take_diagonals(const ndarray& x, const std::vector<int>& labels, int index) {
  Labeled r;
  Shape shape;
  Strides strides;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    auto it = std::find(r.labels.begin(), r.labels.end(), labels[i]);
    if (it == r.labels.end()) {
      r.labels.push_back(labels[i]);
      shape.push_back(x.shape()[i]);
      strides.push_back(x.strides()[i]);
      continue;
    }
    const auto k = static_cast<std::size_t>(it - r.labels.begin());
    if (shape[k] != x.shape()[i])
      throw ValueError("dimensions in operand " + std::to_string(index) +
                       " for collapsing index '" + label_char(labels[i]) + "' don't match (" +
                       std::to_string(shape[k]) + " != " + std::to_string(x.shape()[i]) + ")");
    strides[k] += x.strides()[i];
  }
  r.x = r.labels.size() == labels.size() ? x : x.as_strided(shape, strides, x.offset());
  return r;
}

bool contains(const std::vector<int>& v, int l) {
  return std::find(v.begin(), v.end(), l) != v.end();
}
int position(const std::vector<int>& v, int l) {
  return static_cast<int>(std::find(v.begin(), v.end(), l) - v.begin());
}

// Sums (or, for bool, ors) the axes of `op` whose labels are not in `keep`.
Labeled sum_out(Labeled op, const std::vector<int>& keep) {
  std::vector<int> axes, labels;
  for (std::size_t i = 0; i < op.labels.size(); ++i) {
    if (contains(keep, op.labels[i]))
      labels.push_back(op.labels[i]);
    else
      axes.push_back(static_cast<int>(i));
  }
  if (axes.empty()) return op;
  const DType dt = op.x.dtype();
  // Integers sum in the reductions' usual (64-bit) accumulator and wrap back into dt,
  // which is NumPy's result modulo 2^bits.
  op.x = dt == DType::Bool ? any(op.x, {.axis = axes})
                           : sum(op.x, {.axis = axes}).astype(dt, {.copy = false});
  op.labels = labels;
  return op;
}

// x (labels `from`) as an array over the labels `to`: transposed, with size-1 axes for
// the labels it lacks.
ndarray arrange(const Labeled& op, const std::vector<int>& to) {
  std::vector<int> perm;
  Shape shape;
  for (int l : to)
    if (contains(op.labels, l)) perm.push_back(position(op.labels, l));
  const ndarray t = op.x.transpose(perm);
  for (int l : to)
    shape.push_back(contains(op.labels, l) ? op.x.shape()[position(op.labels, l)] : 1);
  return t.reshape(shape);
}

// One pairwise step: the labels of both operands not in `keep` are summed over.
Labeled contract(const Labeled& a, const Labeled& b, const std::vector<int>& keep,
                 const std::array<std::int64_t, 128>& size) {
  std::vector<int> batch, summed, afree, bfree;
  for (int l : a.labels) {
    if (!contains(b.labels, l))
      afree.push_back(l);
    else if (contains(keep, l))
      batch.push_back(l);
    else
      summed.push_back(l);
  }
  for (int l : b.labels)
    if (!contains(a.labels, l)) bfree.push_back(l);
  Labeled r;
  r.labels = batch;
  r.labels.insert(r.labels.end(), afree.begin(), afree.end());
  r.labels.insert(r.labels.end(), bfree.begin(), bfree.end());
  if (summed.empty()) {  // nothing to sum: a broadcasting product
    r.x = multiply(arrange(a, r.labels), arrange(b, r.labels));
    return r;
  }
  auto dims = [&](const Labeled& op, const std::vector<int>& labels) {
    Shape s;
    for (int l : labels) s.push_back(op.x.shape()[position(op.labels, l)]);
    return s;
  };
  auto prod = [&](const std::vector<int>& labels) {
    std::int64_t p = 1;
    for (int l : labels) p *= size[l];
    return p;
  };
  // (batch..., afree, summed) @ (batch..., summed, bfree); a summed label of size 1 on
  // one side is broadcast to the other's size.
  std::vector<int> la = batch, lb = batch;
  la.insert(la.end(), afree.begin(), afree.end());
  la.insert(la.end(), summed.begin(), summed.end());
  lb.insert(lb.end(), summed.begin(), summed.end());
  lb.insert(lb.end(), bfree.begin(), bfree.end());
  Shape sa = dims(a, batch), sb = dims(b, batch);
  Shape fa = sa, fb = sb;
  for (int l : afree) fa.push_back(a.x.shape()[position(a.labels, l)]);
  for (int l : summed) fa.push_back(size[l]), fb.push_back(size[l]);
  for (int l : bfree) fb.push_back(b.x.shape()[position(b.labels, l)]);
  std::int64_t ma = 1, nb = 1;
  for (int l : afree) ma *= a.x.shape()[position(a.labels, l)];
  for (int l : bfree) nb *= b.x.shape()[position(b.labels, l)];
  const std::int64_t k = prod(summed);
  ndarray xa = arrange(a, la).broadcast_to(fa);
  ndarray xb = arrange(b, lb).broadcast_to(fb);
  sa.push_back(ma), sa.push_back(k);
  sb.push_back(k), sb.push_back(nb);
  const ndarray c = matmul(xa.reshape(sa), xb.reshape(sb));
  Shape out(c.shape().begin(), c.shape().end() - 2);
  for (int l : afree) out.push_back(a.x.shape()[position(a.labels, l)]);
  for (int l : bfree) out.push_back(b.x.shape()[position(b.labels, l)]);
  r.x = c.reshape(out);
  return r;
}

}  // namespace

ndarray einsum(std::string_view subscripts, std::span<const ndarray> operands,
               const EinsumOptions& options) {
  if (operands.empty()) throw ValueError("No input operands");
  // ---- parse
  std::string_view lhs = subscripts, rhs;
  const std::size_t arrow = subscripts.find("->");
  const bool explicit_out = arrow != std::string_view::npos;
  if (explicit_out) {
    lhs = subscripts.substr(0, arrow);
    rhs = subscripts.substr(arrow + 2);
  }
  if (lhs.find('>') != std::string_view::npos || rhs.find('-') != std::string_view::npos ||
      rhs.find('>') != std::string_view::npos || lhs.find('-') != std::string_view::npos)
    throw ValueError("einstein sum subscript string does not contain proper '->' output specified");
  std::vector<Term> terms;
  for (std::size_t start = 0;;) {
    const std::size_t comma = lhs.find(',', start);
    terms.push_back(
        parse_term(lhs.substr(start, comma == std::string_view::npos ? lhs.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (terms.size() < operands.size())
    throw ValueError(
        "more operands provided to einstein sum function than specified in the subscripts string");
  if (terms.size() > operands.size())
    throw ValueError(
        "fewer operands provided to einstein sum function than specified in the subscripts string");
  const Device dev = operands[0].device();
  std::vector<int> nell(terms.size());
  int max_ell = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (!(operands[i].device() == dev))
      throw ValueError("einsum: operands are on different devices (" + dev.str() + " and " +
                       operands[i].device().str() + ")");
    const int nletters = static_cast<int>(terms[i].letters.size()) - (terms[i].ellipsis ? 1 : 0);
    const int nd = operands[i].ndim();
    if (nletters > nd)
      throw ValueError("einstein sum subscripts string contains too many subscripts for operand " +
                       std::to_string(i));
    if (!terms[i].ellipsis && nletters < nd)
      throw ValueError(
          "operand has more dimensions than subscripts given in einstein sum, but no '...' "
          "ellipsis provided to broadcast the extra dimensions.");
    nell[i] = nd - nletters;
    max_ell = std::max(max_ell, nell[i]);
  }
  std::array<int, kLetters> count{};
  for (const Term& t : terms)
    for (int l : t.letters)
      if (l >= 0) ++count[static_cast<std::size_t>(l)];
  std::vector<int> out_labels;
  if (explicit_out) {
    const Term t = parse_term(rhs);
    if (!t.ellipsis && max_ell > 0)
      throw ValueError(
          "output has more dimensions than subscripts given in einstein sum, but no '...' "
          "ellipsis provided to broadcast the extra dimensions.");
    for (int l : t.letters) {
      if (l < 0) continue;
      if (std::count(t.letters.begin(), t.letters.end(), l) > 1)
        throw ValueError(std::string("einstein sum subscripts string includes output subscript '") +
                         label_char(l) + "' multiple times");
      if (count[static_cast<std::size_t>(l)] == 0)
        throw ValueError(std::string("einstein sum subscripts string included output subscript '") +
                         label_char(l) + "' which never appeared in an input");
    }
    out_labels = expand(t, max_ell, max_ell);
  } else {
    for (int j = 0; j < max_ell; ++j) out_labels.push_back(kLetters + j);
    for (int l = 0; l < kLetters; ++l)
      if (count[static_cast<std::size_t>(l)] == 1) out_labels.push_back(l);
  }
  // Note [einsum views]: one operand and no out=, with every label kept (a transpose,
  // a diagonal, the identity): NumPy returns a view of the operand, before it looks at
  // dtype= or casting= (np.einsum('ij', a, dtype='float64') is `a` itself, of a's dtype).
  if (operands.size() == 1 && !options.out) {
    const std::vector<int> labels = expand(terms[0], nell[0], max_ell);
    if (std::all_of(labels.begin(), labels.end(), [&](int l) { return contains(out_labels, l); }))
      return arrange(take_diagonals(operands[0], labels, 0), out_labels);
  }
  // ---- the dtype every step computes in
  std::vector<DType> dts;
  for (const ndarray& x : operands) dts.push_back(x.dtype());
  // NumPy computes in out's dtype too when out= is wider: bool operands with an integer
  // out count (they do not or), int8 operands with an int64 out do not wrap.
  if (options.out) dts.push_back(options.out->dtype());
  const DType dt = options.dtype ? *options.dtype : result_type(dts);
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (!can_cast(operands[i].dtype(), dt, options.casting))
      throw TypeError("Iterator operand " + std::to_string(i) +
                      " dtype could not be cast from dtype('" +
                      std::string(name(operands[i].dtype())) + "') to dtype('" +
                      std::string(name(dt)) + "') according to the rule '" + std::string(name(options.casting)) + "'");
  // ---- diagonals, label sizes (size 1 broadcasts)
  std::vector<Labeled> ops;
  std::array<std::int64_t, 128> size{};
  size.fill(-1);
  for (std::size_t i = 0; i < operands.size(); ++i) {
    ops.push_back(take_diagonals(operands[i].astype(dt, {.copy = false}),
                                 expand(terms[i], nell[i], max_ell), static_cast<int>(i)));
    const Labeled& op = ops.back();
    for (std::size_t a = 0; a < op.labels.size(); ++a) {
      std::int64_t& s = size[static_cast<std::size_t>(op.labels[a])];
      const std::int64_t n = op.x.shape()[a];
      if (s == -1 || s == 1) {
        s = n;
      } else if (n != 1 && n != s) {
        const int l = op.labels[a];
        throw ValueError(
            "operands could not be broadcast together in einstein sum: dimension " +
            (l < kLetters ? std::string("'") + label_char(l) + "'" : std::string("of '...'")) +
            " has sizes " + std::to_string(s) + " and " + std::to_string(n));
      }
    }
  }
  // ---- sum what only one operand has, then contract left to right
  auto needed_after = [&](std::size_t i) {  // output labels and those of operands past i
    std::vector<int> keep = out_labels;
    for (std::size_t j = i + 1; j < ops.size(); ++j)
      keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    return keep;
  };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    std::vector<int> keep = out_labels;
    for (std::size_t j = 0; j < ops.size(); ++j)
      if (j != i) keep.insert(keep.end(), ops[j].labels.begin(), ops[j].labels.end());
    ops[i] = sum_out(ops[i], keep);
  }
  Labeled r = ops[0];
  for (std::size_t i = 1; i < ops.size(); ++i) r = contract(r, ops[i], needed_after(i), size);
  r = sum_out(r, out_labels);
  // Output labels of size 1 in the result but larger elsewhere cannot occur: every
  // output label reached the result through a product that broadcast it.
  ndarray result = arrange(r, out_labels);
  if (!options.out) return result;
  if (options.out->shape() != result.shape())
    throw ValueError("einsum: out has shape " + shape_str(options.out->shape()) +
                     ", the result has shape " + shape_str(result.shape()));
  copyto(*options.out, result, options.casting);
  return *options.out;
}

}  // namespace cunp
