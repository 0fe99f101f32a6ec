// Bindings of exercise 1 (flops): sizes in, a 64-bit count out.
#include "flops.hpp"

#include "runner/arguments.hpp"
#include "runner/binding.hpp"

#include <stdexcept>

namespace {

using runner::json;

linattn::Order order_arg(const json& call) {
  const std::string order = call.at("order").get<std::string>();
  if (order == "left") return linattn::Order::Left;
  if (order == "right") return linattn::Order::Right;
  throw std::invalid_argument("order must be \"left\" or \"right\", not \"" + order + "\"");
}

// {"T", "d_phi", "d_v", "order"} -> {"value"}
const runner::BindingRegistrar attention_flops{
    "attention_flops", [](const json& call, runner::CallRecord&) {
      const std::int64_t T = runner::int_arg(call, "T");
      const std::int64_t d_phi = runner::int_arg(call, "d_phi");
      const std::int64_t d_v = runner::int_arg(call, "d_v");
      const linattn::Order order = order_arg(call);
      std::int64_t value = 0;
      runner::metered([&] { value = linattn::attention_flops(T, d_phi, d_v, order); });
      return json{{"value", value}};
    }};

// {"d_phi", "d_v"} -> {"value"}
const runner::BindingRegistrar crossover_T{
    "crossover_T", [](const json& call, runner::CallRecord&) {
      const std::int64_t d_phi = runner::int_arg(call, "d_phi");
      const std::int64_t d_v = runner::int_arg(call, "d_v");
      std::int64_t value = 0;
      runner::metered([&] { value = linattn::crossover_T(d_phi, d_v); });
      return json{{"value", value}};
    }};

}  // namespace
