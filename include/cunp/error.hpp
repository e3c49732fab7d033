// cunp/error.hpp — the exception hierarchy. Each class maps one-to-one onto the
// Python exception the package raises (see python/src/errors.cpp).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace cunp {

// Base of every cunp error. Python: the builtin named by each subclass.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ValueError : public Error {  // Python ValueError
 public:
  using Error::Error;
};
class TypeError : public Error {  // Python TypeError
 public:
  using Error::Error;
};
class IndexError : public Error {  // Python IndexError
 public:
  using Error::Error;
};
class OverflowError : public Error {  // Python OverflowError
 public:
  using Error::Error;
};
class AttributeError : public Error {  // Python AttributeError
 public:
  using Error::Error;
};
class ZeroDivisionError : public Error {  // Python ZeroDivisionError
 public:
  using Error::Error;
};
class NotImplementedError : public Error {  // Python NotImplementedError
 public:
  using Error::Error;
};
class FloatingPointError : public Error {  // Python FloatingPointError (errstate 'raise')
 public:
  using Error::Error;
};
class BufferError : public Error {  // Python BufferError (DLPack exports and imports)
 public:
  using Error::Error;
};
class FileNotFoundError : public Error {  // Python FileNotFoundError (a file to read is missing)
 public:
  using Error::Error;
};
// numpy.exceptions.AxisError: both a ValueError and an IndexError in NumPy.
class AxisError : public ValueError {
 public:
  AxisError(long long axis, int ndim);
  explicit AxisError(const std::string& message) : ValueError(message) {}
};
class LinAlgError : public ValueError {  // numpy.linalg.LinAlgError
 public:
  using ValueError::ValueError;
};

// A failed CUDA runtime / library call. Python: cunp.cuda.runtime.CUDARuntimeError.
class CudaError : public Error {
 public:
  CudaError(const std::string& call, int code, const std::string& detail);
  const std::string& call() const noexcept { return call_; }
  int code() const noexcept { return code_; }

 private:
  std::string call_;
  int code_;
};

// Device or pinned memory could not be allocated even after the pool released its
// cached blocks. Python: cunp.cuda.memory.OutOfMemoryError (a MemoryError).
class OutOfMemoryError : public Error {
 public:
  OutOfMemoryError(std::size_t requested, std::size_t pool_total, std::size_t limit,
                   const std::string& where);
  std::size_t requested() const noexcept { return requested_; }

 private:
  std::size_t requested_;
};

// NVRTC rejected generated or user-written source. Carries NVRTC's log and the
// file the source was saved to (if CUNP_CACHE_SAVE_CUDA_SOURCE is set).
class CompileError : public Error {
 public:
  CompileError(const std::string& kernel_name, const std::string& log,
               const std::string& source_path);
  const std::string& log() const noexcept { return log_; }
  const std::string& source_path() const noexcept { return source_path_; }

 private:
  std::string log_;
  std::string source_path_;
};

// Normalizes an axis like NumPy's normalize_axis_index: -ndim <= axis < ndim.
int normalize_axis(long long axis, int ndim);

}  // namespace cunp
