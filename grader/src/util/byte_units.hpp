// Byte counts as a student reads them in a message.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>

namespace grader {

// "12.0 MiB", "240 MiB", "0.50 MiB", "16.0 GiB": about three figures, never an exponent.
inline std::string mib(double bytes) {
  double m = bytes / (1024.0 * 1024.0);
  const char* unit = " MiB";
  if (m >= 1024) m /= 1024, unit = " GiB";
  std::ostringstream o;
  o << std::fixed << std::setprecision(m >= 100 ? 0 : m >= 10 ? 1 : 2) << m << unit;
  return o.str();
}

}  // namespace grader
