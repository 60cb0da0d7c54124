// Compiled at configure time (CMakeLists.txt): does clang find the arm64
// C++ library?
#include <string>
