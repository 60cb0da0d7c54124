# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
