// doctest's main(); the test cases live in the other files of this folder. Every test case is
// named "checks/...", so `ctest -R checks` selects them.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
