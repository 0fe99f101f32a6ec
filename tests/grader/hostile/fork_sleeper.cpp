// Forks a child that sleeps for a long time holding stdout, prints the child's pid, then the
// parent either exits at once ("exit") or sleeps too ("stay"). With "setsid" the child first
// leaves the process group and session, so a group kill alone would miss it.
#include <unistd.h>

#include <cstdio>
#include <cstring>
int main(int argc, char** argv) {
  const bool escape = argc > 1 && std::strcmp(argv[1], "setsid") == 0;
  const bool stay = argc > 2 && std::strcmp(argv[2], "stay") == 0;
  int ready[2];
  if (pipe(ready) != 0) return 3;
  const pid_t child = fork();
  if (child == 0) {
    if (escape) setsid();
    close(ready[0]);
    close(ready[1]);  // tells the parent the setsid is done
    for (;;) sleep(1000);
  }
  close(ready[1]);
  char c;
  (void)!read(ready[0], &c, 1);  // returns 0 once the child closed its end
  std::printf("sleeper %d\n", static_cast<int>(child));
  std::fflush(stdout);
  if (stay)
    for (;;) sleep(1000);
  return 0;
}
