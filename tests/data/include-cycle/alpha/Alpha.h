// Fixture for layering.checker_sees_cycle: alpha includes beta, beta includes alpha.
#pragma once
#include "beta/Beta.h"
