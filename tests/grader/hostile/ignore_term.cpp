// Ignores SIGTERM (and SIGINT, SIGHUP) and sleeps: only SIGKILL ends it.
#include <signal.h>
#include <unistd.h>
int main() {
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  for (;;) pause();
}
