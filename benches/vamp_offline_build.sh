#!/usr/bin/env bash
# Builds VAMP 0.6.4 (KavrakiLab/vamp, Apache-2.0) from its PyPI sdist where only the package
# registries are reachable, into a virtual environment, so that benches/vamp_same_run.py can
# time it beside robocollide on the same host. Never a dependency of the project or its tests.
#
# VAMP's CMake fetches three libraries from their repositories (nigh, pdqsort, SIMDxorshift)
# and CPM.cmake itself from GitHub. This script stands in for them with small headers of its
# own, written for this measurement:
#   - nigh (nearest neighbours): an exact linear scan with the interface VAMP's nn.hh uses.
#     It returns the same nearest node as nigh's exact k-d tree (ties aside): on all 699 valid
#     problems the iteration counts equal VAMP's recorded ones. Its cost differs from the
#     tree's on large trees (few problems), so read VAMP's mean and p95 from it with care;
#   - pdqsort: std::sort (VAMP sorts only outside RRT-Connect's search);
#   - SIMDxorshift: four xorshift128+ generators in AVX2 lanes (VAMP's uniform sampler; the
#     benchmark uses its Halton sampler).
# Flags are VAMP's own (-O3 -march=native -mavx2 and its fast-math set), the compiler the
# system's c++; only the Panda module is built. Needs Eigen 3 (Debian: libeigen3-dev).
#
#   bash benches/vamp_offline_build.sh /tmp/vampenv
#   /tmp/vampenv/bin/python benches/vamp_same_run.py --robocollide target/release/robocollide
set -euo pipefail
venv=${1:?usage: vamp_offline_build.sh VENV_DIR}
work=$(mktemp -d)
shims="$work/shims"
if [ ! -d /usr/include/eigen3 ]; then
    echo "Eigen 3 is missing (Debian: apt-get install libeigen3-dev)" >&2
    exit 1
fi
python3 -m venv "$venv"
"$venv/bin/pip" install -q nanobind scikit-build-core cmake ninja numpy typing_extensions
"$venv/bin/pip" download -q --no-deps vamp-planner==0.6.4 -d "$work"
tar -xzf "$work"/vamp_planner-0.6.4.tar.gz -C "$work"
src="$work/vamp_planner-0.6.4"

mkdir -p "$shims/nigh/src/nigh" "$shims/pdqsort" "$shims/xorshift/include" "$shims/xorshift/src"
cat > "$shims/nigh/src/nigh/nigh_forward.hpp" <<'EOF'
// Stand-in for nigh (robocollide's offline VAMP build): exact nearest neighbours by a linear
// scan, with the interface of VAMP 0.6.4's nn.hh.
#pragma once
#include <algorithm>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>
namespace unc::robotics::nigh {
namespace metric {
template <int p> struct LP {};
template <class T, class M> struct Space;
}  // namespace metric
struct NoThreadSafety {};
template <std::size_t batch> struct KDTreeBatch {};
template <class T, class SpaceT, class KeyFn, class Concurrency, class Strategy>
class Nigh {
    using Key = std::decay_t<decltype(std::declval<KeyFn>()(std::declval<const T &>()))>;
    using Distance = typename SpaceT::Distance;
    std::vector<T> items_;
    KeyFn key_;

public:
    void insert(const T &t) { items_.push_back(t); }
    std::size_t size() const { return items_.size(); }
    void clear() { items_.clear(); }
    std::optional<std::pair<T, Distance>> nearest(const Key &q) const {
        std::optional<std::pair<T, Distance>> best;
        for (const auto &t : items_) {
            const Distance d = SpaceT::distance(key_(t), q);
            if (!best || d < best->second) best = std::make_pair(t, d);
        }
        return best;
    }
    template <class Out>
    void nearest(Out &out, const Key &q, std::size_t k, Distance r) const {
        out.clear();
        for (const auto &t : items_) {
            const Distance d = SpaceT::distance(key_(t), q);
            if (d <= r) out.emplace_back(t, d);
        }
        std::stable_sort(out.begin(), out.end(),
                         [](const auto &a, const auto &b) { return a.second < b.second; });
        if (out.size() > k) out.resize(k);
    }
};
}  // namespace unc::robotics::nigh
EOF
for header in lp_space.hpp kdtree_batch.hpp; do
    printf '#pragma once\n#include <nigh/nigh_forward.hpp>\n' > "$shims/nigh/src/nigh/$header"
done
cat > "$shims/pdqsort/pdqsort.h" <<'EOF'
// Stand-in for pdqsort (robocollide's offline VAMP build): std::sort.
#pragma once
#include <algorithm>
template <class It, class C> inline void pdqsort(It b, It e, C c) { std::sort(b, e, c); }
template <class It> inline void pdqsort(It b, It e) { std::sort(b, e); }
template <class It, class C> inline void pdqsort_branchless(It b, It e, C c) { std::sort(b, e, c); }
EOF
cat > "$shims/xorshift/include/simdxorshift128plus.h" <<'EOF'
/* Stand-in for SIMDxorshift (robocollide's offline VAMP build): xorshift128+ in AVX2 lanes. */
#pragma once
#include <immintrin.h>
#include <stdint.h>
typedef struct { __m256i part1; __m256i part2; } avx_xorshift128plus_key_t;
void avx_xorshift128plus_init(uint64_t key1, uint64_t key2, avx_xorshift128plus_key_t *key);
__m256i avx_xorshift128plus(avx_xorshift128plus_key_t *key);
EOF
cat > "$shims/xorshift/src/simdxorshift128plus.c" <<'EOF'
#include "simdxorshift128plus.h"
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
void avx_xorshift128plus_init(uint64_t key1, uint64_t key2, avx_xorshift128plus_key_t *key) {
    uint64_t seed = key1 ^ (key2 << 1), a[4], b[4];
    for (int i = 0; i < 4; ++i) { a[i] = splitmix64(&seed); b[i] = splitmix64(&seed); }
    key->part1 = _mm256_loadu_si256((const __m256i *)a);
    key->part2 = _mm256_loadu_si256((const __m256i *)b);
}
__m256i avx_xorshift128plus(avx_xorshift128plus_key_t *key) {
    __m256i s1 = key->part1;
    const __m256i s0 = key->part2;
    key->part1 = s0;
    s1 = _mm256_xor_si256(s1, _mm256_slli_epi64(s1, 23));
    key->part2 = _mm256_xor_si256(_mm256_xor_si256(s1, s0),
                                  _mm256_xor_si256(_mm256_srli_epi64(s1, 18), _mm256_srli_epi64(s0, 5)));
    return _mm256_add_epi64(key->part2, s0);
}
EOF
printf '/* (unused) */\n' > "$shims/xorshift/src/xorshift128plus.c"

# CPM's packages from the stand-ins above; nanobind from its PyPI package.
cat > "$src/cmake/FetchInitCPM.cmake" <<EOF
macro(CPMAddPackage spec)
  string(REGEX REPLACE "^gh:[^/]+/([^#]+)#.*\$" "\\\\1" _cpm_name "\${spec}")
  if(_cpm_name STREQUAL "nanobind")
    execute_process(COMMAND "\${Python_EXECUTABLE}" -m nanobind --cmake_dir
                    OUTPUT_VARIABLE _nb_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
    find_package(nanobind CONFIG REQUIRED PATHS "\${_nb_dir}" NO_DEFAULT_PATH)
  else()
    if(_cpm_name STREQUAL "nigh")
      set(nigh_SOURCE_DIR "$shims/nigh")
    elseif(_cpm_name STREQUAL "pdqsort")
      set(pdqsort_SOURCE_DIR "$shims/pdqsort")
    elseif(_cpm_name STREQUAL "SIMDxorshift")
      set(SIMDxorshift_SOURCE_DIR "$shims/xorshift")
    endif()
    set(\${_cpm_name}_ADDED YES)
  endif()
endmacro()
EOF
"$venv/bin/pip" install -q --no-build-isolation "$src" \
    -C cmake.define.VAMP_ROBOT_MODULES=panda -C cmake.define.VAMP_ROBOT_STRUCTS=Panda
"$venv/bin/python" -c "import vamp; print('vamp', vamp.__file__)"
