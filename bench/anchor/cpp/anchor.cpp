// The Boost.Bloom side of `make anchor`: Boost's fastest layout,
// fast_multiblock32<8> (8 bits in a 256-bit block, AVX2), built with the
// (n, 0.01) constructor over uint64_t keys (boost::hash, the identity, then
// Boost's one-multiply mix), with 4 KiB pages (std) and with a 2 MiB-aligned
// MADV_HUGEPAGE mapping (huge). Keys, absent keys and the lookup order are
// the ones the Go side generates (splitmix64, see ../keys.go).
//
// Build: g++ -O3 -march=native -std=c++17 -DNDEBUG -I$BOOST_INCLUDE anchor.cpp
// Usage: anchor n
// Prints "RESULT side=boost cfg=fm32_8 alloc=... n=... op=... ns=... hits=..."
// (median of 3 in-process passes) and one INFO line per allocator.
#include <boost/bloom.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static inline std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Keys {
  std::vector<std::uint64_t> members, absent, lookup;
};

static Keys make_keys(std::size_t n, std::uint64_t seed) {
  Keys k;
  k.members.resize(n);
  k.absent.resize(n);
  std::uint64_t s = seed;
  for (auto& x : k.members) x = splitmix64(s);
  for (auto& x : k.absent) x = splitmix64(s);
  k.lookup = k.members;
  std::uint64_t r = seed ^ 0x5DEECE66Dull;
  for (std::size_t i = n - 1; i > 0; --i) {
    std::uint64_t j = (std::uint64_t)(((__uint128_t)splitmix64(r) * (i + 1)) >> 64);
    std::swap(k.lookup[i], k.lookup[j]);
  }
  return k;
}

// 2 MiB-aligned anonymous mapping advised MADV_HUGEPAGE, as the Go library
// stores arrays of 4 MiB and up.
template <class T>
struct huge_allocator {
  using value_type = T;
  static constexpr std::size_t hp = 2u << 20;
  huge_allocator() = default;
  template <class U>
  huge_allocator(const huge_allocator<U>&) {}
  static std::size_t rounded(std::size_t n) { return (n * sizeof(T) + 4095) & ~std::size_t(4095); }
  T* allocate(std::size_t n) {
    std::size_t size = rounded(n);
    void* raw = mmap(nullptr, size + hp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    std::uintptr_t r = (std::uintptr_t)raw, start = (r + hp - 1) & ~(std::uintptr_t)(hp - 1);
    if (start > r) munmap(raw, start - r);
    if (r + size + hp > start + size) munmap((void*)(start + size), r + size + hp - (start + size));
    madvise((void*)start, size, MADV_HUGEPAGE);
    return reinterpret_cast<T*>(start);
  }
  void deallocate(T* p, std::size_t n) { munmap(p, rounded(n)); }
  friend bool operator==(const huge_allocator&, const huge_allocator&) { return true; }
  friend bool operator!=(const huge_allocator&, const huge_allocator&) { return false; }
};

// AnonHugePages of the process: whether the kernel gave the huge pages.
static long anon_huge_kb() {
  std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "AnonHugePages:", 14) == 0) kb = std::atol(line + 14);
  std::fclose(f);
  return kb;
}

// The thread's CPU time, as the Go side reads it: on a shared machine the
// time the thread waits for a core is left out on both sides.
struct clk {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
  }
};
static double ns_since(clk::time_point t0) { return clk::now() - t0; }
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static void emit(const char* alloc, std::size_t n, const char* op, double ns, std::uint64_t hits) {
  std::printf("RESULT side=boost cfg=fm32_8 alloc=%s n=%zu op=%s ns=%.3f hits=%llu\n", alloc, n, op,
              ns, (unsigned long long)hits);
}

constexpr int kPasses = 3;

// The size in bits of the filter of the bulk test's work floor, as on the
// Go side (workFloorBytes in ../ours.go).
constexpr std::size_t kWorkFloorBits = std::size_t(16) << 13;

template <class Filter>
static void run(const char* alloc, const Keys& K) {
  const std::size_t n = K.members.size();
  const double fpr = 0.01;
  std::vector<double> t;

  Filter* built = nullptr;
  for (int r = 0; r < kPasses; ++r) {
    auto* f = new Filter(n, fpr);
    auto t0 = clk::now();
    for (auto k : K.members) f->insert(k);
    t.push_back(ns_since(t0) / n);
    if (r == kPasses - 1) built = f; else delete f;
  }
  Filter& f = *built;
  emit(alloc, n, "insert_single", median(t), 0);

  t.clear();
  bool same = true;
  for (int r = 0; r < kPasses; ++r) {
    Filter g(n, fpr);
    auto t0 = clk::now();
    g.insert(K.members.begin(), K.members.end());
    t.push_back(ns_since(t0) / n);
    same = same && (g == f);
  }
  emit(alloc, n, "insert_bulk", median(t), same ? 1 : 0);

  auto single = [&](const std::vector<std::uint64_t>& keys, const char* op) {
    std::vector<double> tt;
    std::uint64_t hits = 0;
    for (int r = 0; r < kPasses; ++r) {
      hits = 0;
      auto t0 = clk::now();
      for (auto k : keys) hits += f.may_contain(k);
      tt.push_back(ns_since(t0) / keys.size());
    }
    emit(alloc, n, op, median(tt), hits);
  };
  auto bulk = [&](const std::vector<std::uint64_t>& keys, const char* op) {
    std::vector<double> tt;
    std::uint64_t hits = 0;
    for (int r = 0; r < kPasses; ++r) {
      hits = 0;
      auto t0 = clk::now();
      f.may_contain(keys.begin(), keys.end(), [&](const std::uint64_t&, bool b) { hits += b; });
      tt.push_back(ns_since(t0) / keys.size());
    }
    emit(alloc, n, op, median(tt), hits);
  };
  single(K.lookup, "member_single");
  single(K.absent, "absent_single");
  bulk(K.lookup, "member_bulk");
  bulk(K.absent, "absent_bulk");

  // The bulk test's work with no load to wait for: the same lookups in a
  // filter of 16 KiB (kWorkFloorBits), which L1 holds whole, filled with
  // as many members as it takes at about 10 bits each.
  {
    Filter small(kWorkFloorBits);
    std::size_t fill = std::min(n, kWorkFloorBits / 10);
    small.insert(K.members.begin(), K.members.begin() + fill);
    std::vector<double> tt;
    std::uint64_t hits = 0;
    for (int r = 0; r < kPasses; ++r) {
      hits = 0;
      auto t0 = clk::now();
      small.may_contain(K.lookup.begin(), K.lookup.end(), [&](const std::uint64_t&, bool b) { hits += b; });
      tt.push_back(ns_since(t0) / n);
    }
    emit(alloc, n, "floor_bulk_work", median(tt), hits);
  }
  std::printf("INFO side=boost cfg=fm32_8 alloc=%s n=%zu bits_per_key=%.4f model_fpr=%.6f anon_huge_kb=%ld\n",
              alloc, n, (double)f.capacity() / n, Filter::fpr_for(n, f.capacity()), anon_huge_kb());
  delete built;
}

namespace bb = boost::bloom;
template <class A>
using F = bb::filter<std::uint64_t, 1, bb::fast_multiblock32<8>, 0, boost::hash<std::uint64_t>, A>;

int main(int argc, char** argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  Keys K = make_keys(n, 0x1234567890ABCDEFull);
  std::printf("INFO side=boost keys n=%zu first_member=%016llx first_absent=%016llx first_lookup=%016llx\n",
              n, (unsigned long long)K.members[0], (unsigned long long)K.absent[0],
              (unsigned long long)K.lookup[0]);
  run<F<std::allocator<unsigned char>>>("std", K);
  run<F<huge_allocator<unsigned char>>>("huge", K);
  return 0;
}
