// The runner's heap meter, seen from the harness's own code (main and the bindings use
// metered() from binding.hpp; these are the read-outs and the exception tag).
#pragma once

#include <cstdint>

namespace runner {

// The largest heap growth seen during any metered() call so far, in bytes (0 if none grew).
std::uint64_t peak_heap_bytes();

// The largest rise of the process's peak resident memory during any metered() call, in bytes:
// what the heap meter cannot see (mmap, stack arrays) counts here too. Before each call the
// meter holds pages of its own until its resident memory reaches the peak (heap_meter.cpp), so
// an earlier, higher peak (memory touched and given back before the call) hides nothing.
std::uint64_t peak_resident_growth_bytes();

// The largest allocation that failed inside a metered() call, in bytes (0 if none did).
std::uint64_t largest_failed_allocation();

// The bytes currently allocated through malloc and friends, all threads together.
std::int64_t live_heap_bytes();

// True if the last exception to leave a metered() call came out of the student's code. The
// harness uses it to tell the student's exceptions from its own (a malformed request).
bool exception_came_from_student();
void clear_exception_origin();

}  // namespace runner
