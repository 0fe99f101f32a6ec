// Exercise `scale` (a template used by the kit's own test kit/add-exercise, not a course
// exercise): multiply every entry of a matrix by one number.
#pragma once

#include "linattn.hpp"

namespace linattn {

Matrix scale(const Matrix& X, double factor);  // (n, d) -> (n, d)

}  // namespace linattn
