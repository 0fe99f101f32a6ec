// The heap meter on its own, linked into this test program the way it is linked into a
// runner: it replaces malloc for the whole process.
#include "runner/binding.hpp"
#include "runner/heap_meter.hpp"

#include <doctest/doctest.h>

#include <malloc.h>
#include <stdlib.h>

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
