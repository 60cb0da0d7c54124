// SPDX-License-Identifier: Apache-2.0
//
// hello_cxx: an ARA App in C++. ara/ara.h is C, declared extern "C", so
// secure_call() links from C++ as it does from C. The App asks ARA what it
// measured (the info service) and echoes each of its arguments through the
// echo service.
//
//   hello_cxx [NUMBER...]    echo each NUMBER (default 1 2 3) through ARA
//
// Exit status 0 if every call worked, 1 if one did not, 2 on a bad argument.
#include <cinttypes>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <ara/ara.h>

namespace {

// A failed secure_call, with the service it called.
class AraError : public std::runtime_error {
public:
	AraError(const std::string &what, int status)
		: std::runtime_error(what + ": " + ara_strerror(status))
	{
	}
};

// Calls fid with arg; throws unless ARA answered ARA_OK.
template <typename Arg> void call(const char *what, uint32_t fid, Arg &arg)
{
	int st = secure_call(fid, &arg);
	if (st != ARA_OK)
		throw AraError(what, st);
}

std::string hex(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (size_t i = 0; i < n; i++) {
		s += digits[p[i] >> 4];
		s += digits[p[i] & 15];
	}
	return s;
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<uint64_t> numbers;
	try {
		for (int i = 1; i < argc; i++) {
			size_t used = 0;
			numbers.push_back(std::stoull(argv[i], &used, 0));
			if (argv[i][used] != '\0')
				throw std::invalid_argument(argv[i]);
		}
	} catch (const std::logic_error &) {
		std::fprintf(stderr, "usage: hello_cxx [NUMBER...]\n");
		return 2;
	}
	if (numbers.empty())
		numbers = { 1, 2, 3 };

	try {
		ara_info_arg info{};
		call("info", ARA_FID_INFO, info);
		std::printf("hello_cxx: ARA %u.%u.%u, App sha256 %s\n", info.version >> 16,
			    (info.version >> 8) & 0xff, info.version & 0xff,
			    hex(info.app_sha256, sizeof(info.app_sha256)).c_str());

		for (uint64_t n : numbers) {
			ara_echo_arg echo{};
			echo.in = n;
			call("echo", ARA_FID_ECHO, echo);
			bool right = echo.out == ara_echo_expect(n);
			std::printf("hello_cxx: echo %#" PRIx64 " -> %#" PRIx64 " %s\n", n, echo.out,
				    right ? "(right)" : "(WRONG)");
			if (!right)
				return 1;
		}
	} catch (const AraError &e) {
		std::printf("hello_cxx: %s\n", e.what());
		return 1;
	}
	return 0;
}
