// src/ops/philox.h — the Philox4x32-10 counter-based generator (Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011) and the per-element word streams every
// cunp distribution draws from. Compiled by g++ into the CPU loops and by NVRTC into the
// generated kernels, so both devices produce the same words.
#pragma once

#include "common.h"

namespace cunp {
namespace ops {

struct philox_u32x4 {
  u32 v[4];
};

CUNP_HD u32 philox_mulhilo(u32 a, u32 b, u32* hi) {
  const u64 p = static_cast<u64>(a) * static_cast<u64>(b);
  *hi = static_cast<u32>(p >> 32);
  return static_cast<u32>(p);
}

// One Philox4x32 bijection of `ctr` under the 64-bit key (k0, k1), 10 rounds.
CUNP_HD philox_u32x4 philox4x32_10(philox_u32x4 ctr, u32 k0, u32 k1) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    u32 hi0, hi1;
    const u32 lo0 = philox_mulhilo(0xD2511F53u, ctr.v[0], &hi0);
    const u32 lo1 = philox_mulhilo(0xCD9E8D57u, ctr.v[2], &hi1);
    philox_u32x4 next;
    next.v[0] = hi1 ^ ctr.v[1] ^ k0;
    next.v[1] = lo1;
    next.v[2] = hi0 ^ ctr.v[3] ^ k1;
    next.v[3] = lo0;
    ctr = next;
  }
  return ctr;
}

// Note [Philox counter layout]: a generator is a 64-bit key and a 48-bit call counter
// that advances by one per array drawn. Within one call, output element i owns these
// 128-bit counters and nothing else:
//
//   round 0:   (block_lo, block_hi, call_lo, call_hi16 | 0 << 16), block = i*w / 4
//   round r>0: (i_lo,     i_hi,     call_lo, call_hi16 | r << 16)
//
// where w (1, 2 or 4, Note [Words per element] in random_dists.h) is the number of
// 32-bit words one element takes: the 4/w elements of a group share the round-0 block
// (element i takes its lane, words [i*w % 4, i*w % 4 + w)), except that float64
// normals use the lanes of a Box-Muller pair together (elements 2j, 2j+1 of a group:
// lanes 2j and 2j+1). Whatever an element needs beyond its lane (a rejected integer candidate, the
// rest of a rejection sampler's loop) comes from rounds 1, 2, ... of its own index,
// counters no round-0 block uses. So every value depends on (key, call, i) alone:
// never on the grid, the block size, the number of SMs or the host's thread count.
// A kernel thread (or the CPU loop) computes one whole group per block, so each block
// is computed once and a group's outputs are stored together.
struct philox_key {
  u32 k0, k1;
  u64 call;  // only the low 48 bits are used
};

CUNP_HD philox_u32x4 philox_counter(u64 index, u64 call, u32 round) {
  philox_u32x4 c;
  c.v[0] = static_cast<u32>(index);
  c.v[1] = static_cast<u32>(index >> 32);
  c.v[2] = static_cast<u32>(call);
  c.v[3] = (static_cast<u32>(call >> 32) & 0xffffu) | (round << 16);
  return c;
}

// The words of one output element, in order.
struct philox_stream {
  philox_key key;
  u64 index;
  u32 round;
  int pos, end;
  u32 buf[4];

  CUNP_HD u32 next32() {
    if (pos == end) {
      ++round;
      const philox_u32x4 b = philox4x32_10(philox_counter(index, key.call, round), key.k0, key.k1);
      for (int k = 0; k < 4; ++k) buf[k] = b.v[k];
      pos = 0;
      end = 4;
    }
    return buf[pos++];
  }
  CUNP_HD u64 next64() {
    const u64 lo = next32();
    const u64 hi = next32();
    return (hi << 32) | lo;
  }
};

// The round-0 block of group g (elements [g*4/w, (g+1)*4/w)).
CUNP_HD philox_u32x4 philox_group_block(const philox_key& key, u64 group) {
  return philox4x32_10(philox_counter(group, key.call, 0), key.k0, key.k1);
}

// The stream of element `index`, lane `lane` of a group whose block is `block`.
CUNP_HD philox_stream philox_element_stream(const philox_key& key, const philox_u32x4& block, u64 index,
                                            int lane, int words) {
  philox_stream s;
  s.key = key;
  s.index = index;
  s.round = 0;
  for (int k = 0; k < 4; ++k) s.buf[k] = block.v[k];
  s.pos = lane * words;
  s.end = s.pos + words;
  return s;
}

}  // namespace ops
}  // namespace cunp
