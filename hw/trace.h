#include "trace/trace-hw_irdma_sim.h"
