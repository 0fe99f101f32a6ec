#include "abort_frames.hpp"

#include <execinfo.h>
#include <link.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

namespace runner {

namespace {

constexpr int kMaxFrames = 64;

// The runner program's load address and the span of its loaded segments, found at start-up
// (dl_iterate_phdr lists the program first).
std::uintptr_t load_bias = 0, program_begin = 0, program_end = 0;

int find_program(dl_phdr_info* info, std::size_t, void*) {
  load_bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr, end = begin + ph.p_memsz;
    if (program_begin == 0 || begin < program_begin) program_begin = begin;
    if (end > program_end) program_end = end;
  }
  return 1;  // the program only
}

// Only async-signal-safe calls below: write(2), and backtrace, whose library was loaded at
// start-up so that it allocates nothing here.
void append_hex(char* line, std::size_t& at, std::uintptr_t value) {
  char digits[2 * sizeof value];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value != 0);
  while (n > 0) line[at++] = digits[--n];
}

void on_abort(int) {
  void* frames[kMaxFrames];
  const int n = backtrace(frames, kMaxFrames);
  static const char head[] = "\n[linattn-runner abort frames:";
  char line[sizeof head + kMaxFrames * (2 + 2 * sizeof(std::uintptr_t)) + 4];
  std::size_t at = 0;
  for (const char c : head)
    if (c != '\0') line[at++] = c;
  for (int i = 0; i < n; ++i) {
    const auto address = reinterpret_cast<std::uintptr_t>(frames[i]);
    if (address <= program_begin || address > program_end) continue;  // a library's frame
    line[at++] = ' ';
    append_hex(line, at, address - 1 - load_bias);
  }
  line[at++] = ']';
  line[at++] = '\n';
  for (std::size_t done = 0; done < at;) {
    const ssize_t w = ::write(2, line + done, at - done);
    if (w <= 0) break;
    done += static_cast<std::size_t>(w);
  }
  // SA_RESETHAND put the default action back: the signal, raised again, ends the process
  // once this handler returns (it is blocked until then), whoever raised it first.
  std::raise(SIGABRT);
}

}  // namespace

void print_frames_on_abort() {
  dl_iterate_phdr(find_program, nullptr);
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder now, not in the handler
  struct sigaction action {};
  action.sa_handler = on_abort;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, nullptr);
}

}  // namespace runner
