# cmake/cuda_from_wheels.cmake — the CUDA toolkit from NVIDIA's PyPI wheels.
#
# Note [CUDA toolkit from wheels]: NVIDIA's wheels (nvidia-cuda-nvcc, nvidia-cuda-runtime,
# nvidia-cuda-nvrtc, nvidia-cuda-cccl, nvidia-nvvm, nvidia-cublas, nvidia-cufft,
# nvidia-cusolver, nvidia-cusparse, nvidia-curand, nvidia-nvjitlink) install a toolkit
# tree, for CUDA 13 all under site-packages/nvidia/cu13 (bin/nvcc, include, lib,
# nvvm), but its libraries carry only their SONAMEs (libcublas.so.13) and no development
# links (libcublas.so), so FindCUDAToolkit's find_library does not see them. When the
# configure names no toolkit (no CUDAToolkit_ROOT, CMAKE_CUDA_COMPILER or CUDA_PATH) and
# none is installed (no nvcc on PATH, no /usr/local/cuda), this looks for such a tree
# under the Python interpreter's sys.path and lays out ${CMAKE_BINARY_DIR}/cuda-wheels: bin,
# include and nvvm linked to the wheels' directories, lib64 with a development link and a
# SONAME link per library, and points CUDAToolkit_ROOT at it. The SONAMEs compiled into
# vendor_lib.cpp are the wheels', and at run time the libraries are found in the wheels
# again (docs/install.md, CUDA libraries at run time). CUNP_CUDA_WHEELS=/path/nvidia/cu13
# names the tree explicitly (for an isolated `pip install .` whose build environment does
# not see the wheels: `-Ccmake.define.CUNP_CUDA_WHEELS=...`).
set(CUNP_CUDA_WHEELS "" CACHE PATH "An NVIDIA CUDA wheel tree (site-packages/nvidia/cu13) to build against")

function(cunp_cuda_from_wheels)
  if(DEFINED CUDAToolkit_ROOT OR DEFINED ENV{CUDAToolkit_ROOT} OR CMAKE_CUDA_COMPILER OR DEFINED ENV{CUDA_PATH})
    if(NOT CUNP_CUDA_WHEELS)
      return()
    endif()
  endif()
  set(_root "${CUNP_CUDA_WHEELS}")
  if(NOT _root)
    find_program(_cunp_nvcc nvcc)
    if(_cunp_nvcc OR EXISTS /usr/local/cuda/bin/nvcc OR EXISTS /usr/local/cuda/include/cuda_runtime.h)
      return()  # a system toolkit: FindCUDAToolkit finds it
    endif()
    find_package(Python 3.9 COMPONENTS Interpreter QUIET)
    if(NOT Python_EXECUTABLE)
      return()
    endif()
    execute_process(COMMAND "${Python_EXECUTABLE}" -c
      "import os, sys\nfor p in sys.path:\n  for v in ('cu13', 'cu12'):\n    d = os.path.join(p or '.', 'nvidia', v)\n    if os.path.isfile(os.path.join(d, 'include', 'cuda_runtime.h')):\n      print(os.path.abspath(d)); sys.exit(0)"
      OUTPUT_VARIABLE _root OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT _root)
      message(STATUS "cunp: no system CUDA toolkit and no NVIDIA CUDA wheels (site-packages/nvidia/cu13) "
                     "for ${Python_EXECUTABLE}: install the toolkit, or the wheels and build with "
                     "--no-build-isolation, or pass -DCUDAToolkit_ROOT=...")
      return()
    endif()
  endif()
  if(NOT EXISTS "${_root}/include/cuda_runtime.h")
    message(FATAL_ERROR "cunp: CUNP_CUDA_WHEELS=${_root} has no include/cuda_runtime.h (nvidia-cuda-runtime)")
  endif()
  set(_shim "${CMAKE_BINARY_DIR}/cuda-wheels")
  file(REMOVE_RECURSE "${_shim}")
  file(MAKE_DIRECTORY "${_shim}/lib64")
  foreach(_d bin include nvvm)
    if(EXISTS "${_root}/${_d}")
      file(CREATE_LINK "${_root}/${_d}" "${_shim}/${_d}" SYMBOLIC)
    endif()
  endforeach()
  file(GLOB _libs "${_root}/lib/lib*.so*")
  foreach(_lib ${_libs})
    get_filename_component(_name "${_lib}" NAME)
    file(CREATE_LINK "${_lib}" "${_shim}/lib64/${_name}" SYMBOLIC)
    string(REGEX REPLACE "\\.so\\..*$" ".so" _dev "${_name}")
    if(NOT _dev STREQUAL _name AND NOT EXISTS "${_shim}/lib64/${_dev}")
      file(CREATE_LINK "${_lib}" "${_shim}/lib64/${_dev}" SYMBOLIC)
    endif()
  endforeach()
  if(EXISTS "${_root}/lib/stubs")
    file(CREATE_LINK "${_root}/lib/stubs" "${_shim}/lib64/stubs" SYMBOLIC)
  endif()
  set(CUDAToolkit_ROOT "${_shim}" CACHE PATH "CUDA toolkit root (laid out from NVIDIA's wheels)" FORCE)
  set(CUNP_CUDA_FROM_WHEELS ON CACHE INTERNAL "")
  message(STATUS "cunp: CUDA toolkit from NVIDIA's wheels in ${_root} (CUDAToolkit_ROOT=${_shim})")
endfunction()

cunp_cuda_from_wheels()
