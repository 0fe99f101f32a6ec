// The heap meter: this file replaces malloc and its relatives for the whole runner program.
// The harness is linked with --whole-archive, so these definitions land in the executable and
// the dynamic linker binds every caller to them: the student's code, Eigen, operator new in
// libstdc++, and glibc itself. Each forwards to glibc's allocator through its __libc_* entry
// points (which never call back into malloc, so nothing here recurses) and adjusts a live-byte
// count by malloc_usable_size, which is what the block really occupies.
//
// The count is kept all the time, so a metered call starts from the true baseline; the peak is
// only raised while metered() runs. Both are atomics: the student may allocate from threads.
// This measurement names the problem in a message; the kernel's address-space limit is what
// makes it impossible to get around (mmap, say).
#include "heap_meter.hpp"

#include "binding.hpp"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>

extern "C" {
// glibc's own allocator, under names a replacement malloc cannot shadow.
void* __libc_malloc(std::size_t size);
void __libc_free(void* ptr);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* ptr, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {

std::atomic<std::int64_t> live{0};         // bytes in blocks not yet freed
std::atomic<std::int64_t> window_peak{0};  // highest `live` seen while metering
std::atomic<bool> metering{false};
std::atomic<std::int64_t> best_growth{0};  // max over metered() calls of peak - baseline
std::atomic<bool> student_threw{false};
std::atomic<std::int64_t> best_resident_growth{0};  // max over calls of the rise of peak RSS

// The most memory this process has held resident at once so far, in bytes (the kernel's
// high-water mark: every page touched, whether malloc, mmap or a thread's stack gave it).
std::int64_t peak_resident() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;
}

// Pages of the meter's own, resident from the first call on so that it starts with the
// process's resident memory at its high-water mark. The mark only shows a call's memory when
// the call takes the process above it; but code before the first call may have raised it far
// above what is resident when the call starts (a static constructor that touches 190 MiB and
// gives it back, issue 31), and the call could then use that much again unseen. The kernel
// resets the mark only through /proc/self/clear_refs, and no sandbox layer mounts /proc for a
// runner. So the meter touches pages of its own, a step at a time, until the mark moves: from
// there on every page a call makes resident raises it. They are held until the process ends: a
// later call may use unseen only what an earlier call gave back, which that call's own growth
// counted (the reply reports the largest over calls); topping up before every call would add
// each call's peak to the pages held. In one mapping grown with mremap, so that after each call
// mincore can tell whether the call gave any of it back (unmapped or dropped pages of ours make
// room below the mark): what is gone counts as the call's.
struct Topped {
  void* at = nullptr;
  std::size_t bytes = 0;
};
constexpr std::size_t kTopUpStep = std::size_t{1} << 20;

Topped top_up_to_high_water_mark() {
  Topped t;
  const std::int64_t mark = peak_resident();
  // Each step adds a MiB; the gap is at most the mark itself, so this ends.
  while (peak_resident() <= mark) {
    void* grown = t.at == nullptr ? ::mmap(nullptr, kTopUpStep, PROT_READ | PROT_WRITE,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                                  : ::mremap(t.at, t.bytes, t.bytes + kTopUpStep, MREMAP_MAYMOVE);
    if (grown == MAP_FAILED) break;  // the address-space limit: the call has no room left either
    t.at = grown;
    auto* fresh = static_cast<volatile char*>(t.at) + t.bytes;
    for (std::size_t i = 0; i < kTopUpStep; i += 4096) fresh[i] = 1;  // resident now
    t.bytes += kTopUpStep;
  }
  return t;
}

// Bytes of `t` no longer resident: a call unmapped or dropped them.
std::int64_t gone_from(const Topped& t) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::int64_t gone = 0;
  unsigned char resident[256];  // 256 pages at a time
  for (std::size_t at = 0; at < t.bytes; at += sizeof resident * page) {
    const std::size_t len = std::min(sizeof resident * page, t.bytes - at);
    if (::mincore(static_cast<char*>(t.at) + at, len, resident) != 0) {
      gone += static_cast<std::int64_t>(len);  // unmapped
      continue;
    }
    for (std::size_t i = 0; i < (len + page - 1) / page; ++i)
      if (!(resident[i] & 1)) gone += static_cast<std::int64_t>(page);
  }
  return gone;
}

void raise_peak(std::int64_t now) {
  std::int64_t seen = window_peak.load(std::memory_order_relaxed);
  while (now > seen && !window_peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

void gained(void* p) {
  if (p == nullptr) return;
  const auto size = static_cast<std::int64_t>(malloc_usable_size(p));
  const std::int64_t now = live.fetch_add(size, std::memory_order_relaxed) + size;
  if (metering.load(std::memory_order_relaxed)) raise_peak(now);
}

std::int64_t size_of(void* p) {
  return p == nullptr ? 0 : static_cast<std::int64_t>(malloc_usable_size(p));
}

void lost(std::int64_t size) { live.fetch_sub(size, std::memory_order_relaxed); }

// The largest request that came back empty during a metered call: what the student's code
// asked for when it ran into the address-space limit ("512 MiB" says T x T at a glance).
std::atomic<std::uint64_t> largest_failure{0};

void note_failure(void* p, std::size_t size) {
  if (p != nullptr || !metering.load(std::memory_order_relaxed)) return;
  std::uint64_t seen = largest_failure.load(std::memory_order_relaxed);
  while (size > seen &&
         !largest_failure.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
  }
}

}  // namespace

// The signatures repeat glibc's declarations (including __THROW) so that they replace them.
extern "C" {

void* malloc(std::size_t size) __THROW {
  void* p = __libc_malloc(size);
  note_failure(p, size);
  gained(p);
  return p;
}

void free(void* ptr) __THROW {
  lost(size_of(ptr));
  __libc_free(ptr);
}

void* calloc(std::size_t count, std::size_t size) __THROW {
  void* p = __libc_calloc(count, size);
  note_failure(p, count * size);
  gained(p);
  return p;
}

void* realloc(void* ptr, std::size_t size) __THROW {
  const std::int64_t before = size_of(ptr);
  void* p = __libc_realloc(ptr, size);
  if (size != 0) note_failure(p, size);
  if (p != nullptr) {
    lost(before);
    gained(p);
  } else if (size == 0 && ptr != nullptr) {
    lost(before);  // realloc(p, 0) freed p
  }                // else: failed, p untouched
  return p;
}

void* reallocarray(void* ptr, std::size_t count, std::size_t size) __THROW {
  std::size_t total = 0;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(ptr, total);
}

void* memalign(std::size_t alignment, std::size_t size) __THROW {
  void* p = __libc_memalign(alignment, size);
  note_failure(p, size);
  gained(p);
  return p;
}

void* aligned_alloc(std::size_t alignment, std::size_t size) __THROW {
  void* p = __libc_memalign(alignment, size);
  note_failure(p, size);
  gained(p);
  return p;
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) __THROW {
  // The checks posix_memalign makes and memalign does not.
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0)
    return EINVAL;
  const int saved = errno;
  void* p = __libc_memalign(alignment, size);
  note_failure(p, size);
  if (p == nullptr) return ENOMEM;
  errno = saved;
  gained(p);
  *out = p;
  return 0;
}

void* valloc(std::size_t size) __THROW {
  void* p = __libc_valloc(size);
  gained(p);
  return p;
}

void* pvalloc(std::size_t size) __THROW {
  void* p = __libc_pvalloc(size);
  gained(p);
  return p;
}

}  // extern "C"

namespace runner {

void metered(const std::function<void()>& student_call) {
  static const Topped topped = top_up_to_high_water_mark();  // the first call's, held
  const std::int64_t resident_before = peak_resident();
  const std::int64_t baseline = live.load();
  window_peak.store(baseline);
  metering.store(true);
  auto close_window = [&] {
    metering.store(false);
    const std::int64_t growth = window_peak.load() - baseline;
    std::int64_t best = best_growth.load();
    while (growth > best && !best_growth.compare_exchange_weak(best, growth)) {
    }
    // Memory the heap meter never sees (an mmap, a huge stack array) still raises the
    // process's resident high-water mark.
    const std::int64_t resident_growth = peak_resident() - resident_before + gone_from(topped);
    std::int64_t best_resident = best_resident_growth.load();
    while (resident_growth > best_resident &&
           !best_resident_growth.compare_exchange_weak(best_resident, resident_growth)) {
    }
  };
  try {
    student_call();
  } catch (...) {
    close_window();
    student_threw.store(true);
    throw;
  }
  close_window();
}

std::uint64_t largest_failed_allocation() { return largest_failure.load(); }

std::uint64_t peak_heap_bytes() {
  const std::int64_t best = best_growth.load();
  return best > 0 ? static_cast<std::uint64_t>(best) : 0;
}

std::int64_t live_heap_bytes() { return live.load(); }

std::uint64_t peak_resident_growth_bytes() {
  const std::int64_t best = best_resident_growth.load();
  return best > 0 ? static_cast<std::uint64_t>(best) : 0;
}

bool exception_came_from_student() { return student_threw.load(); }
void clear_exception_origin() { student_threw.store(false); }

}  // namespace runner
