// Starts a spinning thread and ends the main thread only (pthread_exit): the process lives on
// in that thread until it is killed.
#include <pthread.h>

#include <thread>
int main() {
  std::thread([] {
    volatile unsigned long n = 0;
    for (;;) n = n + 1;
  }).detach();
  pthread_exit(nullptr);
}
