// What a peak heap looks like, for a request that has a token axis: a student who built a
// T x T matrix or kept T states sees that named.
#include "memory_hints.hpp"

#include "../../src/util/byte_units.hpp"

#include <cmath>
#include <sstream>

namespace grader {

std::string token_axis_memory_hint(const json& request, std::uint64_t peak) {
  const json& call = request["calls"][0];
  if (!call.contains("Q") || !call.contains("V")) return "";
  const double T = call["Q"]["rows"].get<double>();
  const double d_k = call["Q"]["cols"].get<double>();
  const double d_v = call["V"]["cols"].get<double>();
  const double tt = T * T * 8.0;
  const double states = T * d_k * d_v * 8.0;  // the feature maps used here keep d_phi = d_k
  const double p = static_cast<double>(peak);
  std::ostringstream o;
  o.precision(2);
  o << " For scale: a T x T matrix of doubles is " << mib(tt)
    << " at T = " << static_cast<long long>(T) << " (" << p / tt << " times that)";
  if (std::abs(states - tt) > 1)
    o << ", and the T states of the cumulative-sum form are " << mib(states) << " (" << p / states
      << " times that)";
  o << ". Keep one state and update it token by token; never build the masked T x T matrix or "
       "keep every state.";
  return o.str();
}

}  // namespace grader
