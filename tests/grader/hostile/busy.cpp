// CPU work, for the neighbour test (each runner in a scheduling group of its own):
//   busy spin THREADS SECONDS   THREADS threads spin until SECONDS have passed (the hostile one)
//   busy work MILLIONS          one thread counts to MILLIONS million and exits (the honest one)
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "spin") == 0) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(argv[3]));
    std::vector<std::thread> threads;
    for (int i = 0; i < std::atoi(argv[2]); ++i)
      threads.emplace_back([end] {
        while (std::chrono::steady_clock::now() < end) {
          for (volatile int n = 0; n < 100000; n = n + 1) {
          }
        }
      });
    for (auto& t : threads) t.join();
    return 0;
  }
  if (argc == 3 && std::strcmp(argv[1], "work") == 0) {
    const long long count = std::atoll(argv[2]) * 1000000LL;
    for (volatile long long n = 0; n < count; n = n + 1) {
    }
    return 0;
  }
  return 100;
}
