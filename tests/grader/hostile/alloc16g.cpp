// Asks for 16 GB at once. Under RLIMIT_AS the request is refused (exit 0, "refused");
// without the limit it would be granted lazily (exit 1, "granted").
#include <cstdio>
#include <new>
int main() {
  char* p = new (std::nothrow) char[16ull << 30];
  if (p == nullptr) {
    std::printf("refused\n");
    return 0;
  }
  p[0] = 1;
  std::printf("granted\n");
  delete[] p;
  return 1;
}
