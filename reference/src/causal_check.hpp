// Shape checks shared by the causal forms (private to the library's sources).
#pragma once

#include "linref/types.hpp"

#include <stdexcept>
#include <string>

namespace linref {
namespace detail {

// FQ, FK: (T, d_phi); V: (T, d_v). Throws std::invalid_argument naming the caller otherwise.
inline void check_causal_features(const Matrix& FQ, const Matrix& FK, const Matrix& V,
                                  const char* who) {
  if (FQ.cols() != FK.cols())
    throw std::invalid_argument(std::string(who) + ": phi(Q) and phi(K) have different widths");
  if (FQ.rows() != FK.rows() || FK.rows() != V.rows())
    throw std::invalid_argument(std::string(who) + ": Q, K and V must have T rows each");
}

}  // namespace detail
}  // namespace linref
