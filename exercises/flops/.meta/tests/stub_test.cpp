// The flops stub as handed out: both functions throw linattn::NotImplemented naming
// themselves.
#include "flops.hpp"
#include "helpers.hpp"

TEST_CASE("stubs/flops: both functions are not implemented") {
  EX_CHECK_NOT_IMPLEMENTED(linattn::attention_flops(8, 2, 2, linattn::Order::Left),
                           "attention_flops");
  EX_CHECK_NOT_IMPLEMENTED(linattn::attention_flops(8, 2, 2, linattn::Order::Right),
                           "attention_flops");
  EX_CHECK_NOT_IMPLEMENTED(linattn::crossover_T(2, 2), "crossover_T");
}
