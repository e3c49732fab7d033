// cunp/raw_kernel.hpp — hand-written CUDA C++ kernels: RawKernel and RawModule (CuPy's
// cupy.RawKernel and cupy.RawModule). The source is compiled with NVRTC for the device
// it runs on, cached in memory and on disk, and launched with a grid, a block and an
// argument list, as <<<grid, block, shared_mem, stream>>> would.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/scalar.hpp"
#include "cunp/stream.hpp"

namespace cunp {

// Construction options of RawModule and RawKernel (CuPy's keyword arguments).
struct RawModuleOptions {
  // NVRTC options as given ("-DN=4", "--std=c++20", "--use_fast_math"). cunp adds
  // -arch=sm_XX for the device (an -arch here is a ValueError), -std=c++17 unless a
  // -std is given, and the CUDA toolkit's include directories.
  std::vector<std::string> options;
  std::string backend = "nvrtc";  // "nvrtc"; "nvcc" is NotImplementedError, others ValueError
  // Accepted for compatibility: <cuComplex.h> compiles as it is (its types are laid out as
  // complex64/complex128), so nothing is translated.
  bool translate_cucomplex = false;
  // Launch with cudaLaunchCooperativeKernel, so that cooperative_groups::this_grid().sync()
  // works (the grid must fit on the device at once).
  bool enable_cooperative_groups = false;
  // C++ names to instantiate and lower (nvrtcAddNameExpression): "f<float>", "ns::g",
  // "&var<int>"; get_function and get_global take them as written.
  std::vector<std::string> name_expressions;
  bool jitify =
      false;  // NotImplementedError when true (the toolkit's headers are on the path instead)
};

// How a kernel parameter receives its argument.
enum class RawParamKind : std::uint8_t {
  Pointer,  // T*, T[]: an array's data pointer or an address
  Scalar,   // a C type with a dtype: bool, int, unsigned long long, size_t, float, __half,
            // complex<float>, ...
  Other,    // anything else (structs, vector types, names the parser cannot resolve)
};

// One parameter of a kernel: as declared in the source, or, where the declaration is
// not known (a kernel from a binary), as the driver lays it out (kind Other, no name).
struct RawKernelParam {
  std::string name;  // empty for unnamed parameters
  std::string type;  // as declared, macros and template arguments substituted: "const float*"
  RawParamKind kind = RawParamKind::Other;
  std::optional<DType> dtype;  // Scalar: the dtype of its C type
  std::size_t size = 0;        // bytes; 0 when unknown
  friend bool operator==(const RawKernelParam&, const RawKernelParam&) = default;
};

// A grid or block shape, as CUDA's dim3.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

// One argument of a launch (Note [RawKernel arguments] in src/kernel/raw_args.cpp):
//  - an array passes its data pointer (it must live on the kernel's device);
//  - a weak scalar (a C++ arithmetic value, a Python scalar) is converted to the
//    parameter's declared C type (`int n` takes 4 bytes), with NumPy's same-kind rule
//    and OverflowError for values out of range; for a pointer parameter an integer is
//    the address itself;
//  - a strong scalar (a NumPy scalar, RawArg::exact) passes its exact bytes;
//  - RawArg::pointer passes an address, RawArg::bytes the raw bytes of a struct.
class RawArg {
 public:
  struct Address {
    std::uintptr_t value = 0;
    std::optional<Device> device;  // checked against the kernel's device when set
  };

  RawArg(const ndarray& a) : value_(a) {}
  RawArg(ndarray&& a) : value_(std::move(a)) {}
  RawArg(const Scalar& s) : value_(s) {}
  template <typename T>
  requires(std::is_arithmetic_v<T>) RawArg(T v) : value_(Scalar(v)) {}
  template <typename T>
  RawArg(std::complex<T> v) : value_(Scalar(v)) {}

  // The exact bytes of a C++ value of a dtype's type: RawArg::exact(std::int16_t{3}).
  template <typename T>
  static RawArg exact(T v) {
    return RawArg(Scalar::read(dtype_of_v<T>, &v));
  }
  static RawArg pointer(const void* address, std::optional<Device> device = std::nullopt) {
    RawArg a(false);
    a.value_ = Address{reinterpret_cast<std::uintptr_t>(address), device};
    return a;
  }
  static RawArg bytes(std::string raw) {
    RawArg a(false);
    a.value_ = std::move(raw);
    return a;
  }

  bool is_array() const noexcept { return value_.index() == 0; }
  bool is_scalar() const noexcept { return value_.index() == 1; }
  bool is_address() const noexcept { return value_.index() == 2; }
  bool is_bytes() const noexcept { return value_.index() == 3; }
  const ndarray& array() const { return std::get<0>(value_); }
  const Scalar& scalar() const { return std::get<1>(value_); }
  const Address& address() const { return std::get<2>(value_); }
  const std::string& raw_bytes() const { return std::get<3>(value_); }

 private:
  std::variant<ndarray, Scalar, Address, std::string> value_;
};

// Options of one launch.
struct RawLaunchOptions {
  std::size_t shared_mem = 0;    // dynamic shared memory per block, in bytes
  std::optional<Stream> stream;  // default: the current stream of the kernel's device
};

// cudaFuncAttributes of a kernel on one device, under CuPy's names.
struct RawKernelAttributes {
  int max_threads_per_block = 0;
  int shared_size_bytes = 0;  // static shared memory
  int const_size_bytes = 0;
  int local_size_bytes = 0;
  int num_regs = 0;
  int ptx_version = 0;     // major*10+minor
  int binary_version = 0;  // major*10+minor
  int cache_mode_ca = 0;
  int max_dynamic_shared_size_bytes = 0;
  int preferred_shared_memory_carveout = 0;  // percent, -1: no preference
};

// A module compiled for one target, without a GPU.
struct RawBinary {
  std::string cubin;
  std::vector<std::pair<std::string, std::string>> lowered_names;  // (expression, mangled name)
};

class RawModule;

// Note [RawKernel]: CuPy's RawKernel, one __global__ function of hand-written CUDA C++.
//
//   RawKernel saxpy(R"(extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) y[i] = a * x[i] + y[i];
//   })", "saxpy");
//   saxpy((n + 255) / 256, 256, {2.0, x, y, n});  // 2.0 -> float, n -> int
//
// The source is compiled on the first launch for the current CUDA device (-arch=sm_XX
// of its compute capability), cached in the object, in the process and on disk
// (CUNP_CACHE_DIR, keyed by source, options, name expressions, arch and NVRTC version).
// `name` is an extern "C" name, or a C++ name expression ("f<float>", lowered through
// NVRTC). Argument conversion follows the parameters parsed from the kernel's
// declaration, checked against the driver's layout on the first launch. Compile
// errors throw CompileError with NVRTC's log; wrong argument counts and kinds
// TypeError, arrays on another device ValueError.
class RawKernel {
 public:
  RawKernel(std::string code, std::string name, RawModuleOptions options = {});

  // Launches grid x block threads with `args` (one per parameter).
  void operator()(Dim3 grid, Dim3 block, const std::vector<RawArg>& args,
                  const RawLaunchOptions& launch = {}) const;

  const std::string& name() const noexcept;
  const RawModule& module() const noexcept;
  // The parameters of the kernel's declaration in the source (no GPU needed); nullopt
  // when the module came from a binary or the declaration was not found.
  const std::optional<std::vector<RawKernelParam>>& declared_params() const noexcept;

  // Compiles and loads the kernel for the current CUDA device.
  void compile() const;
  // The kernel's attributes on the current CUDA device (compiles it first).
  RawKernelAttributes attributes() const;
  // cudaFuncSetAttribute on the current device; remembered and applied on every device
  // the kernel runs on later. CudaError for values the device refuses.
  void set_max_dynamic_shared_size_bytes(int bytes);
  void set_preferred_shared_memory_carveout(int percent);

  struct Impl;  // opaque; copies share it

 private:
  friend class RawModule;
  explicit RawKernel(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

// Note [RawModule]: CuPy's RawModule: a program of several kernels and __device__
// variables, from source (compiled as RawKernel's) or from a file: a .cu file is read
// and compiled (its directory on the include path), any other file (.cubin, .ptx,
// .fatbin) is loaded as it is.
//
//   RawModule m(code, {.name_expressions = {"scale<float>", "scale<double>"}});
//   RawKernel f = m.get_function("scale<float>");
//   ndarray table = m.get_global("table");  // the bytes of `__device__ float table[16]`
class RawModule {
 public:
  explicit RawModule(std::string code, RawModuleOptions options = {});
  // FileNotFoundError when the file cannot be read; a .cu file is compiled, others loaded.
  static RawModule from_file(const std::filesystem::path& path, RawModuleOptions options = {});

  // The kernel `name`: a name expression of the options, or a symbol of the module
  // (an extern "C" name, a mangled name). With a CUDA device the module is compiled and
  // the name checked now (CudaError naming the kernels the module has); without one,
  // at the kernel's first launch.
  RawKernel get_function(const std::string& name) const;
  // The __device__ variable `name` on the current CUDA device, as a 1-d uint8 array of
  // its bytes (a view that reads and writes the variable; it keeps the module alive).
  ndarray get_global(const std::string& name) const;
  // Compiles and loads the module for the current CUDA device.
  void compile() const;
  // The module compiled for sm_<arch> through the disk cache, without a GPU. ValueError
  // for a module loaded from a binary.
  RawBinary cuda_binary(int arch) const;

  bool from_source() const noexcept;                   // code, or a .cu file
  const std::string& code() const noexcept;            // the source (empty for binaries)
  const std::filesystem::path& path() const noexcept;  // the file (empty for code)
  const RawModuleOptions& options() const noexcept;

  struct Impl;  // opaque; copies share it

 private:
  explicit RawModule(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  friend class RawKernel;
  std::shared_ptr<Impl> impl_;
};

}  // namespace cunp
