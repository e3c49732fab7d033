// cunp/polynomial.hpp — NumPy's legacy polynomial functions (coefficients highest
// power first), np.vander, and the 1-d np.convolve / np.correlate they build on.
// Composed from cunp's ufuncs, scans, linear algebra and the direct correlation of
// cunp/signal.hpp, on the arrays' device. Values are read back to the host only where
// NumPy's result depends on them: a data-dependent length (roots, polydiv's remainder,
// the trimming of leading zeros) or dtype (poly of conjugate roots).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "cunp/ufunc.hpp"

namespace cunp {

// NumPy's convolve/correlate modes.
enum class ConvolveMode : std::uint8_t { Valid, Same, Full };
ConvolveMode parse_convolve_mode(
    std::string_view text);  // "valid", "same", "full"; ValueError otherwise

// np.convolve: the discrete linear convolution of two 1-d arrays (0-d ones count as
// length 1). ValueError for an empty input. Integer inputs wrap as NumPy's integer
// sums; bool gives bool; float16 sums in float32.
ndarray convolve(const ndarray& a, const ndarray& v, ConvolveMode mode = ConvolveMode::Full);
// np.correlate: c[k] = sum_n a[n + k] * conj(v[n]).
ndarray correlate(const ndarray& a, const ndarray& v, ConvolveMode mode = ConvolveMode::Valid);

// np.vander: columns x**(N-1), ..., x**0 (increasing: the reverse), by repeated
// products, in promote_types(x.dtype, int64). ValueError unless x is 1-d.
ndarray vander(const ndarray& x, std::optional<std::int64_t> N = std::nullopt,
               bool increasing = false);

// np.polyval: Horner's scheme y = y * x + p[i] from the highest power (x any shape).
ndarray polyval(const ndarray& p, const ndarray& x);
// np.polyadd / np.polysub: the shorter coefficient array padded with leading zeros.
ndarray polyadd(const ndarray& a1, const ndarray& a2);
ndarray polysub(const ndarray& a1, const ndarray& a2);
// np.polymul: the convolution of the coefficients with leading zeros trimmed.
ndarray polymul(const ndarray& a1, const ndarray& a2);
// np.polydiv: {quotient, remainder} of the long division in floating point; the
// remainder's leading near-zeros (|r| <= 1e-8) are dropped.
std::pair<ndarray, ndarray> polydiv(const ndarray& u, const ndarray& v);
// np.polyder: the m-th derivative (ValueError for m < 0).
ndarray polyder(const ndarray& p, std::int64_t m = 1);
// np.polyint: the m-th antiderivative; k holds the integration constants (absent:
// zeros; one value: used for every integration; else at least m values, the first for
// the first integration). ValueError for m < 0 or too few constants.
ndarray polyint(const ndarray& p, std::int64_t m = 1,
                const std::optional<ndarray>& k = std::nullopt);
// np.poly: the coefficients of the monic polynomial with the given roots (1-d), or the
// characteristic polynomial of a square matrix; conjugate-pair roots give real
// coefficients. No roots: a 0-d 1.0 (NumPy returns the Python float 1.0).
// real_if_all_real: the eigenvalue rule of NumPy before 2.5 (see linalg::eigvals).
ndarray poly(const ndarray& seq_of_zeros, bool real_if_all_real = false);
// np.roots: the eigenvalues of the companion matrix; leading zeros are dropped and
// trailing ones give roots at 0. ValueError unless p is 1-d.
ndarray roots(const ndarray& p, bool real_if_all_real = false);

// np.polyfit's options and results. `cov`: also the covariance matrix of the
// coefficients, scaled by the residuals / (M - deg - 1) (Scaled; ValueError when there
// are not more points than coefficients) or not (Unscaled).
enum class PolyfitCov : std::uint8_t { None, Scaled, Unscaled };
struct PolyfitOptions {
  std::optional<double> rcond;  // default len(x) * eps
  std::optional<ndarray> w;     // weights, one per point
  PolyfitCov cov = PolyfitCov::None;
};
struct PolyfitResult {
  ndarray coefficients;     // (deg + 1,) or (deg + 1, K) for 2-d y
  ndarray residuals;        // np.polyfit(full=True)'s
  ndarray rank;             // 0-d int32
  ndarray singular_values;  // of the scaled Vandermonde matrix
  double rcond = 0;
  std::optional<ndarray> cov;
};
// np.polyfit: least squares through linalg::lstsq of the column-scaled Vandermonde
// matrix. NumPy warns (RankWarning) when the rank is below deg + 1; C++ callers read
// `rank`. TypeError for bad shapes (as NumPy), ValueError for deg < 0.
PolyfitResult polyfit(const ndarray& x, const ndarray& y, std::int64_t deg,
                      const PolyfitOptions& options = {});

}  // namespace cunp
