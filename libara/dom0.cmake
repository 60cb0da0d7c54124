# libara.so, the DOM0 runtime (arm64 only).
