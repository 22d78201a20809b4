// The compression libraries' own headers (pure C), through one module.
#include <bzlib.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>
