// src/stats/bin_ops_host.hpp — the bin arithmetic of bin_ops.hpp compiled for the CPU
// loops (Note [Bin arithmetic, one source]).
#pragma once

#include "ops/cast.h"
#include "stats/bin_ops.hpp"

#define CUNP_STATS_HD inline
CUNP_STATS_BIN_OPS_BODY
#undef CUNP_STATS_HD
