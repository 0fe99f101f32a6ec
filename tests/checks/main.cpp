// doctest's main(), with the kit's skip code and a guard against runs that test nothing
// (see tests/doctest_main.hpp); the test cases live in the other files of this folder and in
// each exercise's exercises/<ex>/.meta/tests/.
#include "../doctest_main.hpp"
