// StoreError: what the measurement database throws (corrupt, locked, unwritable or newer-schema
// file, bad import source); its message is one line fit for a user.
#pragma once

#include "util/Error.h"

namespace beamscope {

/// A measurement database failure; what() is one line ("measurement database PATH: ...").
class StoreError : public Error {
public:
    using Error::Error;
};

} // namespace beamscope
