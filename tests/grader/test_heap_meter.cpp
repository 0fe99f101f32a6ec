// The heap meter on its own, linked into this test program the way it is linked into a
// runner: it replaces malloc for the whole process.
#include "runner/binding.hpp"
#include "runner/heap_meter.hpp"

#include <doctest/doctest.h>

#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t MB = 1u << 20;

// Allocates through `how`, touches the block, frees it: a peak of n bytes that leaves nothing.
void hold(std::size_t n, int how) {
  void* p = nullptr;
  switch (how) {
    case 0: p = std::malloc(n); break;
    case 1: p = std::calloc(n / 8, 8); break;
    case 2: p = std::realloc(std::malloc(16), n); break;
    case 3: REQUIRE(posix_memalign(&p, 64, n) == 0); break;
    case 4: p = aligned_alloc(4096, n); break;
    default: p = new char[n]; break;
  }
  REQUIRE(p != nullptr);
  std::memset(p, 1, n);
  asm volatile("" : : "r"(p) : "memory");  // the block escapes: no allocation elided
  if (how == 5) delete[] static_cast<char*>(p);
  else std::free(p);
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Maps n bytes outside the heap, touches every page and unmaps them: a resident peak of n.
void touch_and_unmap(std::size_t n) {
  void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(p != MAP_FAILED);
  std::memset(p, 1, n);
  asm volatile("" : : "r"(p) : "memory");
  ::munmap(p, n);
}

}  // namespace

TEST_CASE("heap meter: 100 MB counts inside metered() and not outside") {
  const std::int64_t before = runner::live_heap_bytes();
  hold(100 * MB, 0);  // outside any metered call
  CHECK(runner::peak_heap_bytes() == 0);
  CHECK(runner::live_heap_bytes() == before);  // freed blocks leave the count where it was

  runner::metered([] { hold(100 * MB, 0); });
  CHECK(runner::peak_heap_bytes() >= 100 * MB);
  CHECK(runner::peak_heap_bytes() < 101 * MB);

  hold(300 * MB, 0);  // outside again: the recorded peak does not move
  CHECK(runner::peak_heap_bytes() < 101 * MB);
}

TEST_CASE("heap meter: every allocation function is counted") {
  for (int how = 0; how <= 5; ++how) {
    CAPTURE(how);
    const std::size_t n = (10 + 10 * static_cast<std::size_t>(how)) * MB;  // a new peak each time
    runner::metered([&] { hold(n, how); });
    CHECK(runner::peak_heap_bytes() >= n);
  }
}

TEST_CASE("heap meter: allocations on other threads during the call count") {
  runner::metered([] {
    std::thread t([] { hold(64 * MB, 0); });
    t.join();
  });
  CHECK(runner::peak_heap_bytes() >= 64 * MB);
}

TEST_CASE("heap meter: the peak is growth over the baseline, not the total heap") {
  std::vector<char> resident(50 * MB, 1);  // already there before the call
  runner::metered([] { hold(20 * MB, 0); });
  CHECK(runner::peak_heap_bytes() >= 20 * MB);
  CHECK(runner::peak_heap_bytes() < 21 * MB);
}

TEST_CASE("heap meter: an exception leaving metered() is tagged as the student's") {
  runner::clear_exception_origin();
  CHECK_THROWS(runner::metered([] { throw 1; }));
  CHECK(runner::exception_came_from_student());
}

TEST_CASE("heap meter: a call that throws closes its window: its peak counts, later ones do not") {
  CHECK_THROWS(runner::metered([] {
    hold(30 * MB, 0);
    throw 1;
  }));
  CHECK(runner::peak_heap_bytes() >= 30 * MB);
  hold(200 * MB, 0);  // after the call, outside any window
  CHECK(runner::peak_heap_bytes() < 31 * MB);
}

TEST_CASE("heap meter: memory mapped around the heap raises the resident growth") {
  runner::metered([] {
    void* p = ::mmap(nullptr, 100 * MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    std::memset(p, 1, 100 * MB);
    asm volatile("" : : "r"(p) : "memory");
    ::munmap(p, 100 * MB);
  });
  CHECK(runner::peak_heap_bytes() < 1 * MB);  // the heap meter never saw it
  CHECK(runner::peak_resident_growth_bytes() >= 90 * MB);
}

// Issue 31: memory touched and given back before the call (a static constructor) leaves the
// resident high-water mark above the call's own peak. The meter tops its resident memory up to
// the mark before the call, so the call's 100 MiB still raise it; and the top-up is not the call's.
TEST_CASE("heap meter: a high-water mark raised before the call does not hide the call's memory") {
  touch_and_unmap(200 * MB);  // what a static constructor could do before main
  runner::metered([] { touch_and_unmap(100 * MB); });
  CHECK(runner::peak_heap_bytes() < 1 * MB);
  CHECK(runner::peak_resident_growth_bytes() >= 90 * MB);
}

TEST_CASE("heap meter: the top-up to the high-water mark is not counted as the call's") {
  touch_and_unmap(200 * MB);
  runner::metered([] {});
  CHECK(runner::peak_resident_growth_bytes() < 2 * MB);
}

// The pages of the top-up are the first call's, held after it: topping up before every call
// would add each call's peak to them (400 small calls of random_features held 400 MiB and
// timed out).
TEST_CASE("heap meter: many calls do not pile up pages of the top-up") {
  touch_and_unmap(200 * MB);
  const long before = peak_rss_kib();
  for (int i = 0; i < 100; ++i) runner::metered([] { touch_and_unmap(4 * MB); });
  CHECK(peak_rss_kib() - before < 64 * 1024);
  CHECK(runner::peak_resident_growth_bytes() >= 3 * MB);
  CHECK(runner::peak_resident_growth_bytes() < 8 * MB);
}

// ---- upper bounds as well as lower ones ------------------------------------------------------
// The live count is read inside the metered call, so these do not depend on what earlier
// test cases left in the (monotone) recorded peak; the peak bounds below rely on CTest running
// each test case in its own process, as every test case of this file does.

namespace {

// Live bytes now, relative to `base`.
std::int64_t grown(std::int64_t base) { return runner::live_heap_bytes() - base; }

void touch(void* p, std::size_t n) {
  std::memset(p, 1, n);
  asm volatile("" : : "r"(p) : "memory");
}

}  // namespace

TEST_CASE("heap meter: realloc counts the new block and forgets the old one") {
  // Every figure is taken inside the call against a baseline taken there too, and no doctest
  // macro runs in between (its bookkeeping allocates).
  std::int64_t after_malloc = 0, after_grow = 0, after_shrink = 0, after_free = 0;
  bool all_allocated = false;
  runner::metered([&] {
    const std::int64_t base = runner::live_heap_bytes();
    void* p = std::malloc(100 * MB);
    if (p == nullptr) return;
    touch(p, 100 * MB);
    after_malloc = grown(base);
    void* q = std::realloc(p, 200 * MB);  // grows: 200 MB held, not 100 + 200
    if (q == nullptr) return std::free(p);
    touch(q, 200 * MB);
    after_grow = grown(base);
    void* r = std::realloc(q, 10 * MB);  // shrinks: 10 MB held
    if (r == nullptr) return std::free(q);
    after_shrink = grown(base);
    std::free(r);
    after_free = grown(base);
    all_allocated = true;
  });
  REQUIRE(all_allocated);
  const std::int64_t M = static_cast<std::int64_t>(MB);
  CHECK(after_malloc >= 100 * M);
  CHECK(after_malloc < 101 * M);
  CHECK(after_grow >= 200 * M);
  CHECK(after_grow < 201 * M);    // the old block is not counted on top
  CHECK(after_shrink < 101 * M);  // a shrink in place may keep the block's usable size
  CHECK(after_free == 0);         // back to the baseline exactly
  // The peak is the largest single state, 200 MB, not old + new.
  CHECK(runner::peak_heap_bytes() >= 200 * MB);
  CHECK(runner::peak_heap_bytes() < 201 * MB);
}

TEST_CASE("heap meter: realloc(p, 0) and realloc(nullptr, n) keep the count right") {
  const std::int64_t base = runner::live_heap_bytes();
  void* p = std::realloc(nullptr, 8 * MB);  // same as malloc
  const std::int64_t held = grown(base);
  void* q = std::realloc(p, 0);  // glibc frees p and returns nullptr
  if (q != nullptr) std::free(q);
  const std::int64_t released = grown(base);
  REQUIRE(p != nullptr);
  CHECK(held >= static_cast<std::int64_t>(8 * MB));
  CHECK(held < static_cast<std::int64_t>(9 * MB));
  CHECK(released == 0);
}

TEST_CASE("heap meter: free lowers the current count by what was allocated") {
  const std::int64_t M = static_cast<std::int64_t>(MB);
  const std::int64_t base = runner::live_heap_bytes();
  void* a = std::malloc(30 * MB);
  void* b = std::calloc(20 * MB / 8, 8);
  const std::int64_t both = grown(base);
  std::free(a);
  const std::int64_t one = grown(base);
  std::free(b);
  const std::int64_t none = grown(base);
  std::free(nullptr);  // frees nothing, counts nothing
  const std::int64_t still_none = grown(base);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(both >= 50 * M);
  CHECK(both < 51 * M);
  CHECK(one >= 20 * M);
  CHECK(one < 21 * M);
  CHECK(none == 0);
  CHECK(still_none == 0);
}

TEST_CASE("heap meter: aligned allocations are counted while held and released when freed") {
  const std::int64_t M = static_cast<std::int64_t>(MB);
  struct alignas(256) Block {
    char bytes[256];
  };
  for (int how = 0; how < 4; ++how) {
    CAPTURE(how);
    const std::size_t n = 24 * MB;
    void* p = nullptr;
    Block* blocks = nullptr;
    const std::int64_t base = runner::live_heap_bytes();
    switch (how) {
      case 0: p = aligned_alloc(4096, n); break;
      case 1:
        if (posix_memalign(&p, 64, n) != 0) p = nullptr;
        break;
      case 2: p = memalign(128, n); break;
      default:
        blocks = new Block[n / sizeof(Block)];
        p = blocks;
        break;  // aligned new
    }
    if (p != nullptr) touch(p, n);
    const std::int64_t held = grown(base);
    if (blocks != nullptr) delete[] blocks;
    else std::free(p);
    const std::int64_t released = grown(base);
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(p) % (how == 0   ? 4096
                                                 : how == 1 ? 64
                                                 : how == 2 ? 128
                                                            : 256) ==
          0);
    CHECK(held >= 24 * M);
    CHECK(held < 25 * M);
    CHECK(released == 0);
  }
  // And inside a metered call the peak sees them, with an upper bound.
  runner::metered([] {
    void* p = aligned_alloc(4096, 40 * MB);
    REQUIRE(p != nullptr);
    touch(p, 40 * MB);
    std::free(p);
  });
  CHECK(runner::peak_heap_bytes() >= 40 * MB);
  CHECK(runner::peak_heap_bytes() < 41 * MB);
}

TEST_CASE(
    "heap meter: a metered call that frees what it allocated leaves the count at its baseline") {
  std::int64_t left = -1;
  runner::metered([&] {
    const std::int64_t base = runner::live_heap_bytes();
    {
      std::vector<double> v;
      for (int i = 0; i < 1 << 20; ++i) v.push_back(i);  // a chain of reallocations
    }
    left = grown(base);
  });
  CHECK(left == 0);
  // The vector's peak: its final capacity (8 MiB) plus the block it was copied from (4 MiB)
  // while growing, never the sum of every capacity it went through.
  CHECK(runner::peak_heap_bytes() >= 8 * MB);
  CHECK(runner::peak_heap_bytes() < 13 * MB);
}
