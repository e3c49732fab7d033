// cunp/sparse.hpp on the cpu device, against dense computations of the same matrices
// (the Python tests compare the bindings with scipy.sparse on every device). The
// matrices have duplicates, unsorted rows, explicit zeros, empty rows and columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "cunp/creation.hpp"
#include "cunp/error.hpp"
#include "cunp/sparse.hpp"
#include "cunp/ufunc.hpp"

namespace cunp::sparse {
namespace {

// A CSR built on the host: rows of random columns (repeats allowed), in random order.
struct HostCsr {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> data;
  std::vector<std::int32_t> indices, indptr;

  csr_matrix matrix() const {
    return {asarray(data, Device::cpu()),
            asarray(indices, Device::cpu()),
            asarray(indptr, Device::cpu()),
            {rows, cols}};
  }
  // The dense matrix, duplicates summed, row-major.
  std::vector<double> dense() const {
    std::vector<double> d(static_cast<std::size_t>(rows * cols), 0.0);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int32_t k = indptr[i]; k < indptr[i + 1]; ++k) d[i * cols + indices[k]] += data[k];
    return d;
  }
};

HostCsr random_csr(std::int64_t rows, std::int64_t cols, int per_row, unsigned seed,
                   bool duplicates = true) {
  std::mt19937 gen(seed);
  HostCsr m{rows, cols, {}, {}, {0}};
  for (std::int64_t i = 0; i < rows; ++i) {
    const int n = cols == 0 || i % 4 == 3
                      ? 0
                      : static_cast<int>(gen() % (per_row + 1));  // every 4th row empty
    std::vector<std::int32_t> picked;
    for (int k = 0; k < n; ++k) {
      std::int32_t c = static_cast<std::int32_t>(gen() % cols);
      if (!duplicates && std::find(picked.begin(), picked.end(), c) != picked.end()) continue;
      picked.push_back(c);
      m.indices.push_back(c);
      // small integers (so sums are exact), with explicit zeros among them
      m.data.push_back(static_cast<double>(static_cast<int>(gen() % 7) - 3));
    }
    m.indptr.push_back(static_cast<std::int32_t>(m.indices.size()));
  }
  return m;
}

std::vector<double> host(const ndarray& a) { return a.astype(DType::Float64).to_vector<double>(); }

TEST(Sparse, CooToCsrIsCanonicalAndSumsDuplicates) {
  const coo_matrix coo{asarray<double>({1, 2, 3, 4, 5, 6}, Device::cpu()),
                       asarray<std::int64_t>({2, 0, 2, 0, 1, 2}, Device::cpu()),
                       asarray<std::int32_t>({1, 3, 1, 0, 2, 0}, Device::cpu()),
                       {3, 4}};
  const csr_matrix a = coo_to_csr(coo);
  EXPECT_EQ(a.indices.dtype(), DType::Int64);  // an int64 input keeps int64 indices (SciPy's rule)
  EXPECT_EQ(host(a.indptr), (std::vector<double>{0, 2, 3, 5}));
  EXPECT_EQ(host(a.indices), (std::vector<double>{0, 3, 2, 0, 1}));
  EXPECT_EQ(host(a.data), (std::vector<double>{4, 2, 5, 6, 4}));  // (2, 1): 1 + 3
  EXPECT_TRUE(has_canonical_format(a));
  const csr_matrix kept = coo_to_csr(coo, {.sum_duplicates = false, .index_dtype = DType::Int32});
  EXPECT_EQ(kept.indices.dtype(), DType::Int32);
  EXPECT_EQ(host(kept.data), (std::vector<double>{4, 2, 5, 6, 1, 3}));  // duplicates in input order
  EXPECT_FALSE(has_canonical_format(kept));
  EXPECT_TRUE(has_sorted_indices(kept));
  // empty
  const csr_matrix e = coo_to_csr({asarray<double>({}, Device::cpu()),
                                   asarray<std::int32_t>({}, Device::cpu()),
                                   asarray<std::int32_t>({}, Device::cpu()),
                                   {2, 3}});
  EXPECT_EQ(host(e.indptr), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(e.nnz(), 0);
}

TEST(Sparse, ConversionsAgreeWithTheDenseMatrix) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const HostCsr h = random_csr(9, 7, 6, seed);
    const csr_matrix a = h.matrix();
    EXPECT_EQ(host(to_dense(a)), h.dense());
    EXPECT_EQ(host(to_dense(a, Order::F).copy(Order::C)), h.dense());
    const coo_matrix coo = csr_to_coo(a);
    EXPECT_EQ(host(to_dense(coo_to_csr(coo))), h.dense());
    const csc_matrix c = csr_to_csc(a);
    EXPECT_EQ(c.indptr.size(), 8);
    EXPECT_EQ(host(to_dense(csc_to_csr(c))), h.dense());
    // csc rows ascend within each column for a matrix without duplicates
    const HostCsr u = random_csr(9, 7, 6, seed, false);
    EXPECT_TRUE(has_sorted_indices(transpose(csr_to_csc(u.matrix()))));
    const csr_matrix d = from_dense(to_dense(a));
    EXPECT_TRUE(has_canonical_format(d));
    EXPECT_EQ(host(to_dense(d)), h.dense());
    for (double v : host(d.data)) EXPECT_NE(v, 0.0);
  }
}

TEST(Sparse, CanonicalForm) {
  // row 0: columns 2, 0, 2 (unsorted, duplicate); row 1: an explicit zero
  const HostCsr h{2, 3, {1, 2, 3, 0}, {2, 0, 2, 1}, {0, 3, 4}};
  const csr_matrix a = h.matrix();
  EXPECT_FALSE(has_sorted_indices(a));
  const csr_matrix s = sort_indices(a);
  EXPECT_EQ(host(s.indices), (std::vector<double>{0, 2, 2, 1}));
  EXPECT_EQ(host(s.data), (std::vector<double>{2, 1, 3, 0}));  // stable
  const csr_matrix c = sum_duplicates(a);
  EXPECT_EQ(host(c.indices), (std::vector<double>{0, 2, 1}));
  EXPECT_EQ(host(c.data), (std::vector<double>{2, 4, 0}));  // the explicit zero stays
  EXPECT_EQ(host(c.indptr), (std::vector<double>{0, 2, 3}));
  const csr_matrix z = eliminate_zeros(c);
  EXPECT_EQ(host(z.data), (std::vector<double>{2, 4}));
  EXPECT_EQ(host(z.indptr), (std::vector<double>{0, 2, 2}));
  // prune: data and indices longer than indptr[-1]
  const csr_matrix longer{asarray<double>({1, 2, 9}, Device::cpu()),
                          asarray<std::int32_t>({0, 1, 2}, Device::cpu()),
                          asarray<std::int32_t>({0, 1, 2}, Device::cpu()),
                          {2, 3}};
  EXPECT_EQ(prune(longer).data.size(), 2);
  EXPECT_THROW(check_format(longer, true), ValueError);
  EXPECT_NO_THROW(check_format(a, true));
  const csr_matrix bad_col{asarray<double>({1}, Device::cpu()),
                           asarray<std::int32_t>({3}, Device::cpu()),
                           asarray<std::int32_t>({0, 1}, Device::cpu()),
                           {1, 3}};
  EXPECT_THROW(check_format(bad_col, true), ValueError);
}

TEST(Sparse, ProductsAgreeWithTheDenseMatrix) {
  const HostCsr h = random_csr(11, 8, 5, 7);
  const std::vector<double> d = h.dense();
  const csr_matrix a = h.matrix();
  std::vector<double> x(8), xt(11);
  for (int i = 0; i < 8; ++i) x[i] = i - 3;
  for (int i = 0; i < 11; ++i) xt[i] = 2 * i - 5;
  std::vector<double> y(11, 0.0), yt(8, 0.0);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 8; ++j) {
      y[i] += d[i * 8 + j] * x[j];
      yt[j] += d[i * 8 + j] * xt[i];
    }
  EXPECT_EQ(host(matvec(a, asarray(x, Device::cpu()))), y);
  EXPECT_EQ(host(matvec(a, asarray(xt, Device::cpu()), Operation::T)), yt);
  EXPECT_THROW(matvec(a, asarray(xt, Device::cpu())), ValueError);
  // SpMM with a C- and an F-ordered right-hand side
  const ndarray b =
      arange(Scalar(24), {.dtype = DType::Float64, .device = Device::cpu()}).reshape({8, 3});
  const std::vector<double> bh = host(b);
  std::vector<double> c(33, 0.0);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 3; ++k) c[i * 3 + k] += d[i * 8 + j] * bh[j * 3 + k];
  EXPECT_EQ(host(matmat(a, b)), c);
  const ndarray bf = b.copy(Order::F);
  const ndarray cf = matmat(a, bf);
  EXPECT_TRUE(cf.is_f_contiguous());
  EXPECT_EQ(host(cf.copy(Order::C)), c);
  // SpGEMM: A @ B against the dense product; zero results are not stored
  const HostCsr g = random_csr(8, 6, 4, 9);
  const std::vector<double> gd = g.dense();
  std::vector<double> p(66, 0.0);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 6; ++k) p[i * 6 + k] += d[i * 8 + j] * gd[j * 6 + k];
  const csr_matrix ab = matmul(a, g.matrix());
  EXPECT_EQ(ab.shape, (MatrixShape{11, 6}));
  EXPECT_TRUE(has_canonical_format(ab));
  EXPECT_EQ(host(to_dense(ab)), p);
  for (double v : host(ab.data)) EXPECT_NE(v, 0.0);
  EXPECT_THROW(matmul(a, a), ValueError);
  // integer and bool data: NumPy's arithmetic (bool: or of ands)
  const csr_matrix ai = {a.data.astype(DType::Int32), a.indices, a.indptr, a.shape};
  EXPECT_EQ(matvec(ai, asarray(x, Device::cpu()).astype(DType::Int32)).dtype(), DType::Int32);
  EXPECT_EQ(host(matvec(ai, asarray(x, Device::cpu()).astype(DType::Int32))), y);
  const csr_matrix ab1 = {not_equal(a.data, 0), a.indices, a.indptr, a.shape};
  const ndarray yb = matvec(ab1, full({8}, true, {.dtype = DType::Bool, .device = Device::cpu()}));
  EXPECT_EQ(yb.dtype(), DType::Bool);
  for (int i = 0; i < 11; ++i) {  // x is all true: row i is true when it stores a non-zero
    bool stored_nonzero = false;
    for (std::int32_t k = h.indptr[i]; k < h.indptr[i + 1]; ++k)
      stored_nonzero = stored_nonzero || h.data[k] != 0;
    EXPECT_EQ(yb.item(i).to_bool(), stored_nonzero) << i;
  }
}

TEST(Sparse, ElementwiseOperationsAgreeWithTheDenseMatrices) {
  const HostCsr ha = random_csr(7, 6, 5, 11), hb = random_csr(7, 6, 5, 12);
  const std::vector<double> da = ha.dense(), db = hb.dense();
  struct Case {
    BinaryOp op;
    double (*f)(double, double);
  };
  const Case cases[] = {
      {BinaryOp::Add, [](double x, double y) { return x + y; }},
      {BinaryOp::Subtract, [](double x, double y) { return x - y; }},
      {BinaryOp::Multiply, [](double x, double y) { return x * y; }},
      {BinaryOp::Maximum, [](double x, double y) { return std::max(x, y); }},
      {BinaryOp::Minimum, [](double x, double y) { return std::min(x, y); }},
      {BinaryOp::NotEqual, [](double x, double y) { return x != y ? 1.0 : 0.0; }},
      {BinaryOp::Less, [](double x, double y) { return x < y ? 1.0 : 0.0; }},
      {BinaryOp::Greater, [](double x, double y) { return x > y ? 1.0 : 0.0; }},
  };
  for (const Case& c : cases) {
    const csr_matrix r = binary_op(ha.matrix(), hb.matrix(), c.op);
    EXPECT_TRUE(has_canonical_format(r));
    EXPECT_EQ(r.data.dtype(), c.op >= BinaryOp::NotEqual ? DType::Bool : DType::Float64);
    std::vector<double> want(da.size());
    for (std::size_t i = 0; i < da.size(); ++i) want[i] = c.f(da[i], db[i]);
    EXPECT_EQ(host(to_dense(r)), want) << static_cast<int>(c.op);
    for (double v : host(r.data)) EXPECT_NE(v, 0.0);
  }
  EXPECT_THROW(binary_op(ha.matrix(), random_csr(7, 5, 2, 1).matrix(), BinaryOp::Add), ValueError);
  const csr_matrix bools{
      not_equal(ha.matrix().data, 0), ha.matrix().indices, ha.matrix().indptr, {7, 6}};
  EXPECT_THROW(binary_op(bools, bools, BinaryOp::Subtract), TypeError);
  EXPECT_EQ(binary_op(bools, bools, BinaryOp::Add).data.dtype(), DType::Bool);
}

TEST(Sparse, ReductionsAgreeWithTheDenseMatrix) {
  const HostCsr h = random_csr(9, 5, 6, 21);
  const std::vector<double> d = h.dense();
  const csr_matrix a = h.matrix();
  double total = 0;
  std::vector<double> rows(9, 0.0), cols(5, 0.0);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 5; ++j) {
      total += d[i * 5 + j];
      rows[i] += d[i * 5 + j];
      cols[j] += d[i * 5 + j];
    }
  EXPECT_EQ(sum(a).item().to_double(), total);
  EXPECT_EQ(host(sum(a, 1)), rows);
  EXPECT_EQ(host(sum(a, 0)), cols);
  EXPECT_EQ(host(sum(a, -1)), rows);
  const csr_matrix ai{a.data.astype(DType::Int8), a.indices, a.indptr, a.shape};
  EXPECT_EQ(sum(ai, 0).dtype(), DType::Int64);
  EXPECT_EQ(sum(ai, std::nullopt, DType::Float32).dtype(), DType::Float32);
  EXPECT_THROW(sum(a, 2), AxisError);
  // max/min/argmax/argmin along each axis and overall, as the dense matrix gives them
  for (int i = 0; i < 9; ++i) {
    const auto b = d.begin() + i * 5;
    EXPECT_EQ(reduce(a, ReduceOp::Max, 1).item(i).to_double(), *std::max_element(b, b + 5)) << i;
    EXPECT_EQ(reduce(a, ReduceOp::Min, 1).item(i).to_double(), *std::min_element(b, b + 5)) << i;
    EXPECT_EQ(reduce(a, ReduceOp::ArgMax, 1).item(i).to_int64(), std::max_element(b, b + 5) - b)
        << i;
    EXPECT_EQ(reduce(a, ReduceOp::ArgMin, 1).item(i).to_int64(), std::min_element(b, b + 5) - b)
        << i;
  }
  for (int j = 0; j < 5; ++j) {
    std::vector<double> col(9);
    for (int i = 0; i < 9; ++i) col[i] = d[i * 5 + j];
    EXPECT_EQ(reduce(a, ReduceOp::Max, 0).item(j).to_double(),
              *std::max_element(col.begin(), col.end()));
    EXPECT_EQ(reduce(a, ReduceOp::ArgMin, 0).item(j).to_int64(),
              std::min_element(col.begin(), col.end()) - col.begin());
  }
  EXPECT_EQ(reduce(a, ReduceOp::Max).item().to_double(), *std::max_element(d.begin(), d.end()));
  EXPECT_EQ(reduce(a, ReduceOp::ArgMax).item().to_int64(),
            std::max_element(d.begin(), d.end()) - d.begin());
  EXPECT_EQ(reduce(a, ReduceOp::ArgMin).item().to_int64(),
            std::min_element(d.begin(), d.end()) - d.begin());
  // a row of negative entries only: its max is an implicit zero
  const HostCsr neg{2, 3, {-1, -2}, {1, 0}, {0, 2, 2}};
  EXPECT_EQ(host(reduce(neg.matrix(), ReduceOp::Max, 1)), (std::vector<double>{0, 0}));
  EXPECT_EQ(host(reduce(neg.matrix(), ReduceOp::ArgMax, 1)), (std::vector<double>{2, 0}));
  EXPECT_EQ(host(reduce(neg.matrix(), ReduceOp::Max, 1, true)), (std::vector<double>{-1, 0}));
  EXPECT_EQ(reduce(neg.matrix(), ReduceOp::ArgMin, std::nullopt, true).item().to_int64(), 0);
  // zero-size reductions
  const HostCsr empty{0, 3, {}, {}, {0}};
  EXPECT_THROW(reduce(empty.matrix(), ReduceOp::Max), ValueError);
  EXPECT_THROW(reduce(empty.matrix(), ReduceOp::ArgMax, 0), ValueError);
  EXPECT_EQ(reduce(empty.matrix(), ReduceOp::Max, 1).size(), 0);
}

TEST(Sparse, IndexingAgreesWithTheDenseMatrix) {
  const HostCsr h = random_csr(8, 6, 5, 31);
  const std::vector<double> d = h.dense();
  const csr_matrix a = h.matrix();
  for (std::int64_t k : {-8, -3, 0, 2, 5, 6}) {
    std::vector<double> want;
    for (std::int64_t i = 0; i < 8; ++i)
      if (i + k >= 0 && i + k < 6) want.push_back(d[i * 6 + i + k]);
    EXPECT_EQ(host(diagonal(a, k)), want) << k;
  }
  const std::vector<std::int64_t> rows = {3, -1, 0, 3, 5};
  const csr_matrix r = take_rows(a, asarray(rows, Device::cpu()));
  EXPECT_EQ(r.shape, (MatrixShape{5, 6}));
  std::vector<double> want;
  for (std::int64_t i : rows)
    for (int j = 0; j < 6; ++j) want.push_back(d[(i < 0 ? i + 8 : i) * 6 + j]);
  EXPECT_EQ(host(to_dense(r)), want);
  EXPECT_THROW(take_rows(a, asarray<std::int64_t>({8}, Device::cpu())), IndexError);
  EXPECT_THROW(take_rows(a, asarray<std::int64_t>({-9}, Device::cpu())), IndexError);
  // slices: contiguous, strided, reversed, empty
  struct S {
    std::optional<std::int64_t> start, stop, step;
    std::vector<std::int64_t> rows;
  };
  const S slices[] = {{1, 5, std::nullopt, {1, 2, 3, 4}},
                      {std::nullopt, std::nullopt, 3, {0, 3, 6}},
                      {std::nullopt, std::nullopt, -2, {7, 5, 3, 1}},
                      {5, 2, std::nullopt, {}},
                      {-3, std::nullopt, std::nullopt, {5, 6, 7}}};
  for (const S& s : slices) {
    const csr_matrix sr = slice_rows(a, s.start, s.stop, s.step);
    std::vector<double> w;
    for (std::int64_t i : s.rows)
      for (int j = 0; j < 6; ++j) w.push_back(d[i * 6 + j]);
    EXPECT_EQ(sr.shape.rows, static_cast<std::int64_t>(s.rows.size()));
    EXPECT_EQ(host(to_dense(sr)), w);
  }
  EXPECT_THROW(slice_rows(a, 0, 3, 0), ValueError);
  const std::vector<std::int64_t> cols = {4, 0, 4, -1, 2};
  const csr_matrix c = take_cols(a, asarray(cols, Device::cpu()));
  EXPECT_EQ(c.shape, (MatrixShape{8, 5}));
  std::vector<double> wc;
  for (int i = 0; i < 8; ++i)
    for (std::int64_t j : cols) wc.push_back(d[i * 6 + (j < 0 ? j + 6 : j)]);
  EXPECT_EQ(host(to_dense(c)), wc);
  EXPECT_THROW(take_cols(a, asarray<std::int64_t>({6}, Device::cpu())), IndexError);
  EXPECT_EQ(take_cols(a, asarray<std::int64_t>({}, Device::cpu())).shape, (MatrixShape{8, 0}));
}

TEST(Sparse, Solves) {
  // lower triangle of a diagonally dominant matrix, plus entries above it (ignored)
  const HostCsr l{3, 3, {4, 1, 5, 9, 2, -1, 6}, {0, 2, 0, 1, 0, 1, 2}, {0, 2, 4, 7}};
  const std::vector<double> b = {8, 7, 3};
  const ndarray x = spsolve_triangular(l.matrix(), asarray(b, Device::cpu()));
  // 4 x0 = 8; 5 x0 + 9 x1 = 7; 2 x0 - x1 + 6 x2 = 3
  const double x0 = 2, x1 = (7 - 5 * x0) / 9, x2 = (3 - 2 * x0 + x1) / 6;
  const std::vector<double> xs = host(x);
  EXPECT_DOUBLE_EQ(xs[0], x0);
  EXPECT_DOUBLE_EQ(xs[1], x1);
  EXPECT_DOUBLE_EQ(xs[2], x2);
  EXPECT_EQ(x.dtype(), DType::Float64);
  const ndarray xu = spsolve_triangular(l.matrix(), asarray(b, Device::cpu()),
                                        {.lower = false, .unit_diagonal = true});
  // unit upper: x2 = 3; x1 = 7; x0 + x2 = 8 (the (0, 2) entry is 1)
  EXPECT_EQ(host(xu), (std::vector<double>{5, 7, 3}));
  const ndarray b2 = asarray<double>({8, 1, 7, 2, 3, 3}, Device::cpu()).reshape({3, 2});
  const ndarray x2d = spsolve_triangular(l.matrix(), b2);
  EXPECT_EQ(x2d.shape(), (Shape{3, 2}));
  EXPECT_DOUBLE_EQ(x2d.item(4).to_double(), x2);
  const HostCsr missing{2, 2, {1, 1}, {0, 0}, {0, 1, 2}};  // no (1, 1) entry
  EXPECT_THROW(spsolve_triangular(missing.matrix(), asarray<double>({1, 1}, Device::cpu())),
               LinAlgError);
  EXPECT_THROW(spsolve_triangular(random_csr(3, 4, 2, 1).matrix(),
                                  asarray<double>({1, 1, 1}, Device::cpu())),
               ValueError);
  // general solve
  const HostCsr g{3, 3, {2, 1, 1, 3, 1, 4}, {0, 2, 1, 0, 2, 1}, {0, 2, 4, 6}};
  const SolveResult r = spsolve(g.matrix(), asarray<double>({3, 4, 5}, Device::cpu()));
  EXPECT_FALSE(r.singular);
  const std::vector<double> gd = g.dense(), rx = host(r.x);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(gd[i * 3] * rx[0] + gd[i * 3 + 1] * rx[1] + gd[i * 3 + 2] * rx[2], 3.0 + i, 1e-12);
  const HostCsr sing{2, 2, {1, 2}, {0, 0}, {0, 1, 2}};
  const SolveResult s = spsolve(sing.matrix(), asarray<double>({1, 1}, Device::cpu()));
  EXPECT_TRUE(s.singular);
  EXPECT_TRUE(std::isnan(s.x.item(0).to_double()));
  // int data solves in float64, float32 stays float32
  const csr_matrix gi{
      g.matrix().data.astype(DType::Int32), g.matrix().indices, g.matrix().indptr, {3, 3}};
  EXPECT_EQ(spsolve(gi, asarray<std::int32_t>({3, 4, 5}, Device::cpu())).x.dtype(), DType::Float64);
  const csr_matrix gf{
      g.matrix().data.astype(DType::Float32), g.matrix().indices, g.matrix().indptr, {3, 3}};
  EXPECT_EQ(spsolve_triangular(gf, asarray<float>({1, 1, 1}, Device::cpu())).dtype(),
            DType::Float32);
}

TEST(Sparse, DtypesAndIndexDtypes) {
  EXPECT_EQ(index_dtype(10, {3, 4}), DType::Int32);
  EXPECT_EQ(index_dtype(std::int64_t{1} << 31, {3, 4}), DType::Int64);
  EXPECT_EQ(index_dtype(10, {std::int64_t{1} << 31, 4}), DType::Int64);
  EXPECT_EQ(index_dtype(10, {3, 4}, DType::Int64), DType::Int64);
  const HostCsr h = random_csr(5, 4, 3, 41);
  const csr_matrix a = h.matrix();
  const csr_matrix half{a.data.astype(DType::Float16), a.indices, a.indptr, a.shape};
  EXPECT_THROW(to_dense(half), ValueError);
  const csr_matrix wide{a.data, a.indices.astype(DType::Int64), a.indptr.astype(DType::Int64),
                        a.shape};
  EXPECT_EQ(csr_to_csc(wide).indices.dtype(), DType::Int64);
  EXPECT_EQ(csr_to_csc(wide, {.index_dtype = DType::Int32}).indices.dtype(), DType::Int32);
  EXPECT_EQ(host(to_dense(wide)), h.dense());
  const csr_matrix bad{a.data, a.indices.astype(DType::Float64), a.indptr, a.shape};
  EXPECT_THROW(to_dense(bad), TypeError);
  const csr_matrix short_ptr{a.data, a.indices, a.indptr.view({slice(0, 3)}), a.shape};
  EXPECT_THROW(to_dense(short_ptr), ValueError);
  for (DType dt : {DType::Bool, DType::Int8, DType::UInt16, DType::Int64, DType::Float32,
                   DType::Complex64, DType::Complex128}) {
    const csr_matrix t{a.data.astype(dt), a.indices, a.indptr, a.shape};
    const ndarray dense = to_dense(t);
    EXPECT_EQ(dense.dtype(), dt);
    EXPECT_TRUE(cunp::array_equal(to_dense(sum_duplicates(t)), dense)) << name(dt);
    EXPECT_TRUE(cunp::array_equal(to_dense(csc_to_csr(csr_to_csc(t))), dense)) << name(dt);
  }
}

}  // namespace
}  // namespace cunp::sparse
