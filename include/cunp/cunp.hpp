// cunp/cunp.hpp — the whole public C++ API.
#pragma once

#include "cunp/config.hpp"
#include "cunp/creation.hpp"
#include "cunp/device.hpp"
#include "cunp/dtype.hpp"
#include "cunp/error.hpp"
#include "cunp/fft.hpp"
#include "cunp/kernel.hpp"
#include "cunp/linalg.hpp"
#include "cunp/manipulation.hpp"
#include "cunp/memory.hpp"
#include "cunp/ndarray.hpp"
#include "cunp/random.hpp"
#include "cunp/reduce.hpp"
#include "cunp/scalar.hpp"
#include "cunp/stream.hpp"
#include "cunp/ufunc.hpp"
