// Prints a line, then aborts: ends with SIGABRT after its output was captured.
#include <cstdio>
#include <cstdlib>
int main() {
  std::printf("about to abort\n");
  std::fflush(stdout);
  std::abort();
}
