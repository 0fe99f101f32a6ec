// Writes through a null pointer: ends with SIGSEGV.
int main() {
  volatile int* p = nullptr;
  *p = 1;
  return 0;
}
