// src/fft/cpu_fft_backend.cpp — cunp's own FFT for the cpu device, the default when the
// build does not opt into FFTW (-DCUNP_WITH_FFTW=ON): mixed-radix Cooley-Tukey for
// lengths whose prime factors are small, Bluestein's chirp-z for the rest. No
// third-party code, so the default build carries no GPL code.
//
// Note [Built-in cpu FFT]: every transform is computed in double precision (float32
// inputs are widened, the results rounded once), so float32 results are at least as
// accurate as NumPy's. A plan holds, per transformed length, a table of the n roots of
// unity (computed in long double, so each twiddle is correctly rounded to double) that
// every stage of the decimation-in-time recursion indexes; a Bluestein length also holds
// the chirp and the transform of its conjugate padded to a power of two. Plans are
// immutable after construction: executions allocate their own buffers, so one cached
// plan serves concurrent callers. R2C is computed as a C2C of the real input and C2R by
// the Hermitian extension of the half spectrum (the imaginary parts of the DC and, for
// even n, Nyquist bins are ignored, as NumPy and FFTW do); multi-axis C2R transforms
// the leading axes first, as numpy.fft.irfftn does.
#ifndef CUNP_HAVE_FFTW

#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#include "cunp/error.hpp"
#include "fft/backend.hpp"

namespace cunp::fft::detail {

namespace {

using cd = std::complex<double>;

// std::complex's operator* handles infinities with extra branches; plain products here.
inline cd mul(cd a, cd b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Prime factors > kMaxRadix make the length a Bluestein length.
constexpr std::int64_t kMaxRadix = 31;

// exp(sign * 2*pi*i * k / n) for k in [0, n), each correctly rounded.
std::vector<cd> roots_of_unity(std::int64_t n, int sign) {
  std::vector<cd> w(static_cast<std::size_t>(n));
  const long double step = 2.0L * std::numbers::pi_v<long double> / static_cast<long double>(n);
  for (std::int64_t k = 0; k < n; ++k) {
    const long double a = step * static_cast<long double>(k);
    w[static_cast<std::size_t>(k)] = {static_cast<double>(std::cos(a)), static_cast<double>(sign * std::sin(a))};
  }
  return w;
}

// A mixed-radix transform of one length whose prime factors are all <= kMaxRadix.
class Radix {
 public:
  Radix(std::int64_t n, int sign) : n_(n), w_(roots_of_unity(n, sign)) {
    std::int64_t m = n;
    for (std::int64_t p : {4, 2, 3, 5}) {
      while (m % p == 0) {
        factors_.push_back(p);
        m /= p;
      }
    }
    for (std::int64_t p = 7; m > 1; p += 2) {
      while (m % p == 0) {
        factors_.push_back(p);
        m /= p;
      }
    }
  }
  static bool fits(std::int64_t n) {
    for (std::int64_t p = 2; p * p <= n; ++p) {
      while (n % p == 0) {
        if (p > kMaxRadix) return false;
        n /= p;
      }
    }
    return n <= kMaxRadix;
  }
  // out[0..n) = DFT of in[0], in[stride], ...; out must not alias in.
  void run(const cd* in, std::int64_t stride, cd* out) const { step(in, stride, out, n_, 0); }

 private:
  // The DFT of length `len` = n_ / (product of the factors before `f`): split into p
  // decimated sub-sequences, transform each into consecutive blocks of out, combine.
  void step(const cd* in, std::int64_t stride, cd* out, std::int64_t len, std::size_t f) const {
    if (len == 1) {
      out[0] = in[0];
      return;
    }
    const std::int64_t p = factors_[f], m = len / p;
    if (m == 1) {
      for (std::int64_t q = 0; q < p; ++q) out[q] = in[q * stride];
    } else {
      for (std::int64_t q = 0; q < p; ++q) step(in + q * stride, stride * p, out + q * m, m, f + 1);
    }
    const std::int64_t tw = n_ / len;  // w_len^j = w_n^(j * tw)
    cd t[kMaxRadix], y[kMaxRadix];
    for (std::int64_t k = 0; k < m; ++k) {
      t[0] = out[k];
      for (std::int64_t q = 1; q < p; ++q) t[q] = mul(w_[static_cast<std::size_t>(q * k * tw)], out[q * m + k]);
      if (p == 2) {
        y[0] = t[0] + t[1];
        y[1] = t[0] - t[1];
      } else if (p == 4) {
        // w_4 = w_n^(n/4): -i for the forward, +i for the backward sign.
        const cd j = w_[static_cast<std::size_t>(n_ / 4)];
        const cd a = t[0] + t[2], b = t[0] - t[2], c = t[1] + t[3], d = mul(j, t[1] - t[3]);
        y[0] = a + c;
        y[1] = b + d;
        y[2] = a - c;
        y[3] = b - d;
      } else {
        const std::int64_t wp = n_ / p;  // w_p^j = w_n^(j * wp)
        for (std::int64_t s = 0; s < p; ++s) {
          cd acc = t[0];
          for (std::int64_t q = 1; q < p; ++q) acc += mul(w_[static_cast<std::size_t>(((q * s) % p) * wp)], t[q]);
          y[s] = acc;
        }
      }
      for (std::int64_t s = 0; s < p; ++s) out[k + s * m] = y[s];
    }
  }

  std::int64_t n_;
  std::vector<cd> w_;
  std::vector<std::int64_t> factors_;
};

// One transformed length: Radix directly, or Bluestein's convolution of length M (a
// power of two >= 2n - 1) through two Radix transforms of length M.
class Line {
 public:
  Line(std::int64_t n, int sign) : n_(n) {
    if (Radix::fits(n)) {
      direct_ = std::make_unique<Radix>(n, sign);
      return;
    }
    std::int64_t m = 1;
    while (m < 2 * n - 1) m *= 2;
    m_ = m;
    fwd_ = std::make_unique<Radix>(m, -1);
    inv_ = std::make_unique<Radix>(m, +1);
    // chirp[k] = exp(sign * pi*i * k^2 / n), with k^2 reduced mod 2n exactly.
    const std::vector<cd> w2 = roots_of_unity(2 * n, sign);
    chirp_.resize(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) {
      const auto r = static_cast<std::int64_t>((static_cast<unsigned __int128>(k) * static_cast<unsigned __int128>(k)) %
                                               static_cast<unsigned __int128>(2 * n));
      chirp_[static_cast<std::size_t>(k)] = w2[static_cast<std::size_t>(r)];
    }
    std::vector<cd> b(static_cast<std::size_t>(m), cd{});
    for (std::int64_t k = 0; k < n; ++k) {
      const cd c = std::conj(chirp_[static_cast<std::size_t>(k)]);
      b[static_cast<std::size_t>(k)] = c;
      if (k > 0) b[static_cast<std::size_t>(m - k)] = c;
    }
    kernel_.resize(static_cast<std::size_t>(m));
    fwd_->run(b.data(), 1, kernel_.data());
  }

  // out[0..n) = transform of in[0], in[stride], ...; `work` is scratch of work_size().
  void run(const cd* in, std::int64_t stride, cd* out, cd* work) const {
    if (direct_) {
      direct_->run(in, stride, out);
      return;
    }
    cd* a = work;
    cd* fa = work + m_;
    for (std::int64_t k = 0; k < m_; ++k)
      a[k] = k < n_ ? mul(in[k * stride], chirp_[static_cast<std::size_t>(k)]) : cd{};
    fwd_->run(a, 1, fa);
    for (std::int64_t k = 0; k < m_; ++k) fa[k] = mul(fa[k], kernel_[static_cast<std::size_t>(k)]);
    inv_->run(fa, 1, a);
    const double scale = 1.0 / static_cast<double>(m_);
    for (std::int64_t k = 0; k < n_; ++k) out[k] = mul(a[k], chirp_[static_cast<std::size_t>(k)]) * scale;
  }
  std::int64_t work_size() const { return direct_ ? 0 : 2 * m_; }

 private:
  std::int64_t n_, m_ = 0;
  std::unique_ptr<Radix> direct_, fwd_, inv_;
  std::vector<cd> chirp_, kernel_;
};

// Element offsets (in elements of the layout's type) of every point of a rank-k
// transform of logical shape `shape`, in C order, under layout `l`.
std::vector<std::int64_t> offsets(const Layout& l, const std::vector<std::int64_t>& shape) {
  const std::size_t rank = shape.size();
  std::vector<std::int64_t> s(rank);
  std::int64_t acc = l.stride;
  for (std::size_t j = rank; j-- > 0;) {
    s[j] = acc;
    if (j > 0) acc *= l.embed[j];
  }
  std::int64_t total = 1;
  for (auto d : shape) total *= d;
  std::vector<std::int64_t> off(static_cast<std::size_t>(total));
  std::vector<std::int64_t> idx(rank, 0);
  std::int64_t cur = 0;
  for (std::int64_t e = 0; e < total; ++e) {
    off[static_cast<std::size_t>(e)] = cur;
    for (std::size_t j = rank; j-- > 0;) {
      if (++idx[j] < shape[j]) {
        cur += s[j];
        break;
      }
      cur -= s[j] * (idx[j] - 1);
      idx[j] = 0;
    }
  }
  return off;
}

class CpuPlan final : public Plan {
 public:
  explicit CpuPlan(const PlanKey& key) : key_(key) {
    const int sign = key.forward ? -1 : +1;
    for (auto len : key.n) lines_.push_back(std::make_shared<Line>(len, sign));
    half_ = key.n;
    if (key.kind != Kind::C2C) half_.back() = key.n.back() / 2 + 1;
    in_off_ = offsets(key.in, key.kind == Kind::C2R ? half_ : key.n);
    out_off_ = offsets(key.out, key.kind == Kind::R2C ? half_ : key.n);
    for (const auto& l : lines_) work_ = std::max(work_, l->work_size());
  }
  std::size_t work_size() const noexcept override { return 0; }

  template <typename T>
  void execute(void* in, void* out) const {
    using C = std::complex<T>;
    const std::size_t rank = key_.n.size();
    std::int64_t total = 1, maxlen = 1;
    for (auto d : key_.n) {
      total *= d;
      maxlen = std::max(maxlen, d);
    }
    std::vector<cd> buf(static_cast<std::size_t>(total)), line(static_cast<std::size_t>(maxlen)),
        res(static_cast<std::size_t>(maxlen)), work(static_cast<std::size_t>(work_));
    const std::int64_t last = key_.n.back(), half = half_.back();
    for (std::int64_t b = 0; b < key_.batch; ++b) {
      // Gather into buf, of C-ordered logical shape n.
      if (key_.kind == Kind::C2C) {
        const C* src = static_cast<const C*>(in) + b * key_.in.dist;
        for (std::int64_t e = 0; e < total; ++e) buf[static_cast<std::size_t>(e)] = cd(src[in_off_[static_cast<std::size_t>(e)]]);
      } else if (key_.kind == Kind::R2C) {
        const T* src = static_cast<const T*>(in) + b * key_.in.dist;
        for (std::int64_t e = 0; e < total; ++e)
          buf[static_cast<std::size_t>(e)] = cd(static_cast<double>(src[in_off_[static_cast<std::size_t>(e)]]), 0.0);
      } else {
        const C* src = static_cast<const C*>(in) + b * key_.in.dist;
        const std::int64_t rows = total / last;
        for (std::int64_t r = 0; r < rows; ++r)
          for (std::int64_t k = 0; k < half; ++k)
            buf[static_cast<std::size_t>(r * last + k)] = cd(src[in_off_[static_cast<std::size_t>(r * half + k)]]);
      }
      // Transform along each axis (C2R: the leading axes over the stored half only,
      // then the last axis by Hermitian extension).
      const std::size_t full_axes = key_.kind == Kind::C2R ? rank - 1 : rank;
      for (std::size_t j = 0; j < full_axes; ++j) {
        std::int64_t inner = 1;
        for (std::size_t i = j + 1; i < rank; ++i) inner *= key_.n[i];
        const std::int64_t len = key_.n[j], outer = total / (inner * len);
        const std::int64_t used_inner = key_.kind == Kind::C2R ? inner / last * half : inner;
        for (std::int64_t o = 0; o < outer; ++o)
          for (std::int64_t iu = 0; iu < used_inner; ++iu) {
            // C2R: skip the unfilled tail of each last-axis row.
            const std::int64_t i = key_.kind == Kind::C2R ? (iu / half) * last + iu % half : iu;
            cd* base = buf.data() + o * inner * len + i;
            lines_[j]->run(base, inner, res.data(), work.data());
            for (std::int64_t k = 0; k < len; ++k) base[k * inner] = res[static_cast<std::size_t>(k)];
          }
      }
      if (key_.kind == Kind::C2R) {
        T* dst = static_cast<T*>(out) + b * key_.out.dist;
        const std::int64_t rows = total / last;
        for (std::int64_t r = 0; r < rows; ++r) {
          const cd* row = buf.data() + r * last;
          for (std::int64_t k = 0; k < last; ++k)
            line[static_cast<std::size_t>(k)] = k < half ? row[k] : std::conj(row[last - k]);
          line[0] = {line[0].real(), 0.0};
          if (last % 2 == 0) line[static_cast<std::size_t>(last / 2)] = {line[static_cast<std::size_t>(last / 2)].real(), 0.0};
          lines_.back()->run(line.data(), 1, res.data(), work.data());
          for (std::int64_t k = 0; k < last; ++k)
            dst[out_off_[static_cast<std::size_t>(r * last + k)]] = static_cast<T>(res[static_cast<std::size_t>(k)].real());
        }
      } else {
        C* dst = static_cast<C*>(out) + b * key_.out.dist;
        if (key_.kind == Kind::C2C) {
          for (std::int64_t e = 0; e < total; ++e) dst[out_off_[static_cast<std::size_t>(e)]] = C(buf[static_cast<std::size_t>(e)]);
        } else {
          const std::int64_t rows = total / last;
          for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t k = 0; k < half; ++k)
              dst[out_off_[static_cast<std::size_t>(r * half + k)]] = C(buf[static_cast<std::size_t>(r * last + k)]);
        }
      }
    }
  }

 private:
  PlanKey key_;
  std::vector<std::shared_ptr<Line>> lines_;
  std::vector<std::int64_t> half_, in_off_, out_off_;
  std::int64_t work_ = 0;
};

}  // namespace

LruPlanCache& cpu_fft_plan_cache() {
  static LruPlanCache cache("cpu, built-in FFT", 64, -1);
  return cache;
}

void execute_cpu_fft(PlanKey key, void* in, void* out) {
  if (key.n.empty()) throw ValueError("FFT of rank 0");
  auto plan = cpu_fft_plan_cache().get(key, [&] { return std::make_unique<CpuPlan>(key); });
  const auto& p = static_cast<const CpuPlan&>(*plan);
  if (key.double_precision) p.execute<double>(in, out);
  else p.execute<float>(in, out);
}

}  // namespace cunp::fft::detail

#endif  // !CUNP_HAVE_FFTW
