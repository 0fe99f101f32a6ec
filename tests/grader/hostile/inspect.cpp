// Prints what it was given: the open descriptors above 2, its limits, whether it leads its
// own process group, and what stdin holds. Then writes argv[1] bytes to a file (to meet the
// file-size limit) if asked.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
  std::printf("fds:");
  for (int fd = 3; fd < 4096; ++fd)
    if (fcntl(fd, F_GETFD) != -1) std::printf(" %d", fd);
  std::printf("\n");
  rlimit r{};
  getrlimit(RLIMIT_CORE, &r);
  std::printf("core %llu\n", static_cast<unsigned long long>(r.rlim_cur));
  getrlimit(RLIMIT_AS, &r);
  std::printf("as %llu\n", static_cast<unsigned long long>(r.rlim_cur));
  getrlimit(RLIMIT_FSIZE, &r);
  std::printf("fsize %llu\n", static_cast<unsigned long long>(r.rlim_cur));
  std::printf("leader %d\n", getpgrp() == getpid() ? 1 : 0);
  char c;
  std::printf("stdin %zd\n", read(0, &c, 1));
  std::fflush(stdout);
  if (argc > 1) {
    std::vector<char> block(1 << 16, 'y');
    long left = std::atol(argv[1]);
    FILE* f = std::fopen("big.out", "wb");
    while (f && left > 0) {
      std::fwrite(block.data(), 1, block.size(), f);
      std::fflush(f);
      left -= static_cast<long>(block.size());
    }
    std::printf("wrote\n");
  }
  return 7;
}
