/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The App of the loader tests. It shows that it ran (a line, and the marker
 * file), what argv[0] it got (ara-loader passes --argv0), and which of
 * ara-loader's sealed memfds it finds mapped in its own /proc/self/maps:
 * running from those copies, not from the files, is the point.
 * Usage: hello_app MARKER
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ara/boot.h"

static const char *const memfds[] = { ARA_MEMFD_APP, ARA_MEMFD_LIBARA,
				      ARA_MEMFD_ENTRY };
#define NMEMFDS (sizeof(memfds) / sizeof(memfds[0]))

static int report_mappings(void)
{
	bool seen[NMEMFDS] = { false };
	char line[4096], name[64];
	FILE *maps = fopen("/proc/self/maps", "r");

	if (maps == NULL) {
		perror("hello-app: /proc/self/maps");
		return 1;
	}
	while (fgets(line, sizeof(line), maps) != NULL)
		for (size_t i = 0; i < NMEMFDS; i++) {
			snprintf(name, sizeof(name), "/memfd:%s ", memfds[i]);
			seen[i] |= strstr(line, name) != NULL;
		}
	fclose(maps);
	for (size_t i = 0; i < NMEMFDS; i++)
		if (seen[i])
			printf("hello-app: mapped /memfd:%s\n", memfds[i]);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *marker;

	printf("hello-app: started\n");
	printf("hello-app: argv[0]=%s\n", argv[0]);
	if (argc != 2) {
		fprintf(stderr, "usage: hello_app MARKER\n");
		return 2;
	}
	marker = fopen(argv[1], "w");
	if (marker == NULL || fputs("hello-app ran\n", marker) == EOF ||
	    fclose(marker) != 0) {
		perror(argv[1]);
		return 1;
	}
	return report_mappings();
}
