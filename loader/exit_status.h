/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Exit statuses of ara-loader (loader/README.md, docs/man/ara-loader.1)
 * and ara-manifest's own (docs/man/ara-manifest.1). Values are interface:
 * scripts test them. Append only; never renumber. ara-loader never exits 0
 * itself: on success it execs, and from then on the status is the App's own.
 */
#ifndef ARA_LOADER_EXIT_STATUS_H
#define ARA_LOADER_EXIT_STATUS_H

enum ara_exit {
	ARA_EXIT_OK = 0,	  /* --help and --version only */
	ARA_EXIT_INTERNAL = 1,	  /* a step that should not fail did */
	ARA_EXIT_USAGE = 2,	  /* bad command line or environment */
	ARA_EXIT_IO = 3,	  /* a file is missing or unreadable */
	ARA_EXIT_INTEGRITY = 4,	  /* a digest differs from the manifest */
	ARA_EXIT_MANIFEST = 5,	  /* the manifest is malformed */
	ARA_EXIT_UNSUPPORTED = 6, /* no POE, or the App/entry object is unfit */
	ARA_EXIT_EXEC = 7,	  /* the dynamic linker could not be executed */
};

/* ara-manifest: ARA_CLI_OK, ARA_CLI_REFUSED (--check: an object differs or
 * is unfit), ARA_CLI_USAGE (also an input unfit for its role, a malformed
 * manifest) and this. */
enum ara_manifest_exit {
	ARA_MANIFEST_EXIT_IO = 3, /* a file is missing, unreadable or unwritable */
};

#endif
