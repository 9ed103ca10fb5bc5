// Fixture for layering.checker_sees_cycle: closes the cycle alpha -> beta -> alpha.
#pragma once
#include "alpha/Alpha.h"
