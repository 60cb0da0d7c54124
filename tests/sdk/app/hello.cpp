// SPDX-License-Identifier: Apache-2.0
// A C++ App: secure_call and ara_strerror by their C names (extern "C").
#include <cstdio>

#include <ara/ara.h>

int main()
{
	int st = secure_call(ARA_FID_NULL, nullptr);

	std::printf("hello++: %s\n", ara_strerror(st));
	return st != ARA_OK;
}
