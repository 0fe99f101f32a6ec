#include "progress.hpp"

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <unistd.h>

namespace grader {

Progress stderr_progress(bool lines_in_logs) {
  struct State {
    std::mutex mutex;
    std::string phase;
    std::size_t last_tenth = 0;
  };
  const bool tty = isatty(STDERR_FILENO);
  if (!tty && !lines_in_logs) return {};
  auto state = std::make_shared<State>();
  return [tty, state](const char* phase, std::size_t done, std::size_t total) {
    std::lock_guard<std::mutex> lock(state->mutex);
    if (tty) {
      std::fprintf(stderr, "\r  %s %zu/%zu   ", phase, done, total);
      std::fflush(stderr);
      return;
    }
    const std::size_t tenth = done * 10 / total;
    if (phase != state->phase) state->last_tenth = 0, state->phase = phase;
    if (tenth > state->last_tenth || done == total) {
      std::fprintf(stderr, "  %s %zu/%zu\n", phase, done, total);
      state->last_tenth = tenth;
    }
  };
}

void clear_progress_line() {
  // Blanks rather than an escape sequence: no control codes reach a NO_COLOR terminal.
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r%40s\r", "");
}

}  // namespace grader
