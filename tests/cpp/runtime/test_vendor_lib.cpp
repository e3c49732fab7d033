// The lazily loaded vendor libraries (src/runtime/vendor_lib.cpp): no GPU needed, only the
// toolkit's library files.
#include <cublas_v2.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <nvrtc.h>

#include <filesystem>
#include <string>

#include "runtime/vendor_lib.hpp"
#include "cunp/error.hpp"

namespace cunp::cuda {
namespace {

constexpr VendorLib kAll[] = {VendorLib::cublas, VendorLib::cusolver, VendorLib::cufft,
                              VendorLib::nvrtc, VendorLib::nccl};

bool installed(VendorLib lib) { return std::filesystem::exists(vendor_lib_info(lib).path); }

TEST(VendorLib, MissingSymbolRaisesCudaErrorNamingTheLibrary) {
  for (VendorLib lib : kAll) {
    const VendorLibInfo& info = vendor_lib_info(lib);
    try {
      vendor_symbol(lib, "cunpNoSuchFunction");
      ADD_FAILURE() << info.name << ": no error for a symbol the library does not have";
    } catch (const CudaError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(info.name), std::string::npos) << what;
      if (installed(lib)) {  // loaded, so the lookup is what failed
        EXPECT_EQ(e.call(), "dlsym");
        EXPECT_NE(what.find("cunpNoSuchFunction"), std::string::npos) << what;
      } else {
        EXPECT_EQ(e.call(), "dlopen");
        EXPECT_NE(what.find(std::string(info.name) + " is not available: "), std::string::npos)
            << what;
      }
    }
  }
}

TEST(VendorLib, SonamesResolveWhenTheToolkitIsInstalled) {
  int checked = 0;
  for (VendorLib lib : kAll) {
    const VendorLibInfo& info = vendor_lib_info(lib);
    if (!installed(lib)) continue;  // that library's file is not on this machine
    const std::string soname = info.soname;
    EXPECT_EQ(soname.rfind("lib", 0), 0u) << soname;
    EXPECT_NE(soname.find(".so."), std::string::npos) << soname << " is not versioned";
    EXPECT_EQ(std::filesystem::path(info.path).filename().string(), soname);
    void* handle = vendor_library(lib);
    ASSERT_NE(handle, nullptr) << info.name;
    EXPECT_EQ(vendor_library(lib), handle) << info.name << " loaded twice";
    // The SONAME names the object now loaded (whether found by name or by path).
    void* again = dlopen(info.soname, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_EQ(again, handle) << info.soname;
    if (again) dlclose(again);
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no CUDA vendor library files on this machine";
}

// The library loaded is the one the headers describe, and each function pointer has the
// header's type (the calls below compile only if it does).
TEST(VendorLib, LoadedVersionsMatchTheHeaders) {
  int checked = 0;
  if (installed(VendorLib::cublas)) {
    int major = -1;
    ASSERT_EQ(CUNP_VENDOR(cublas, cublasGetProperty)(MAJOR_VERSION, &major), CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(major, CUBLAS_VER_MAJOR);
    ++checked;
  }
  if (installed(VendorLib::cusolver)) {
    int major = -1;
    ASSERT_EQ(CUNP_VENDOR(cusolver, cusolverGetProperty)(MAJOR_VERSION, &major),
              CUSOLVER_STATUS_SUCCESS);
    EXPECT_EQ(major, CUSOLVER_VER_MAJOR);
    ++checked;
  }
  if (installed(VendorLib::cufft)) {
    int major = -1;
    ASSERT_EQ(CUNP_VENDOR(cufft, cufftGetProperty)(MAJOR_VERSION, &major), CUFFT_SUCCESS);
    EXPECT_EQ(major, CUFFT_VER_MAJOR);
    ++checked;
  }
  if (installed(VendorLib::nvrtc)) {
    int major = -1, minor = -1;
    ASSERT_EQ(CUNP_VENDOR(nvrtc, nvrtcVersion)(&major, &minor), NVRTC_SUCCESS);
    EXPECT_EQ(major, CUDART_VERSION / 1000) << "NVRTC " << major << "." << minor;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no CUDA vendor library files on this machine";
}

// cublas_v2.h aliases cublasGetVersion to cublasGetVersion_v2: the symbol looked up is the
// alias's target, not the unversioned name.
TEST(VendorLib, HeaderAliasesAreLookedUpByTheirTarget) {
  if (!installed(VendorLib::cublas)) GTEST_SKIP() << vendor_lib_info(VendorLib::cublas).path;
  void* expected = dlsym(vendor_library(VendorLib::cublas), "cublasGetVersion_v2");
  ASSERT_NE(expected, nullptr);
  EXPECT_EQ(reinterpret_cast<void*>(CUNP_VENDOR(cublas, cublasGetVersion)), expected);
}

}  // namespace
}  // namespace cunp::cuda
