// The whole reference library.
#pragma once

#include "attention.hpp"
#include "costs.hpp"
#include "feature_maps.hpp"
#include "memory.hpp"
#include "modern.hpp"
#include "random.hpp"
#include "types.hpp"
