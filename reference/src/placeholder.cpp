// placeholder so that the library has a source until the reference lands; delete it then.
#include "linref/types.hpp"
