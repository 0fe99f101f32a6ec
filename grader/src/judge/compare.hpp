// What the judges of the checks share, in one include: numeric comparison that explains
// itself (numeric_comparison.hpp), naming the likely mistake (diagnosis.hpp), and reading a
// request, its expected values and a reply (judge_helpers.hpp). Nothing here calls the
// reference; what the oracle halves share is in grader/oracle/makers.hpp.
#pragma once

#include "check.hpp"
#include "diagnosis.hpp"
#include "judge_helpers.hpp"
#include "numeric_comparison.hpp"
