/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The boot block: what ara-loader hands to libara.so's initialisation.
 *
 * ara-loader verifies libara.so, the entry object and the App against the
 * manifest, copies each into a sealed memfd (what was hashed is what gets
 * mapped), and execs the App's dynamic linker on those memfds. It passes this
 * block in one more sealed memfd whose descriptor number is in the
 * environment variable ARA_BOOT_ENV. libara reads it before any App code runs,
 * checks it, and closes every descriptor named here.
 *
 * Layout: fixed-size, naturally aligned, little-endian (loader and libara run
 * in the same process image, so no byte-order question arises). Append only.
 */
#ifndef ARA_BOOT_H
#define ARA_BOOT_H

#include <stdint.h>

#define ARA_BOOT_ENV "ARA_BOOT_FD"
#define ARA_BOOT_MAGIC 0x42415241u /* "ARAB" read as little-endian bytes */
#define ARA_BOOT_VERSION 5u
#define ARA_SHA256_BYTES 32u
#define ARA_BOOT_COMM_BYTES 16u
#define ARA_BOOT_KEY_BYTES 65u  /* an uncompressed P-256 point */ /* TASK_COMM_LEN: 15 characters and a NUL */

/*
 * Exit status of a process whose libara initialisation failed (a message on
 * stderr says why). No App code has run. ara-loader's own statuses are 1..7.
 */
#define ARA_EXIT_INIT_FAILED 8
/* Exit status when DOM0 finds its own state corrupted (e.g. its heap). */
#define ARA_EXIT_DOM0_CORRUPT 9
/*
 * ARA ended the process because App code asked for what no correct program
 * does (rt_sigreturn on a frame the kernel would refuse, or one that puts
 * the signal stack on ARA's pages), or for more than ARA can hold (more
 * live threads taking signals than it has slots). libara/src/dom0/trap.c.
 */
#define ARA_EXIT_REFUSED 10
/*
 * App code touched memory its domain may not (a SEGV_PKUERR fault): ARA
 * reports the address on stderr, never what is there, and ends the process.
 */
#define ARA_EXIT_PKEY_FAULT 11
/*
 * App code logged a transfer after the RTM's final report (ara/rtm.h): the
 * report covers the whole run only if no transfer can follow it.
 */
#define ARA_EXIT_RTM_CLOSED 12
/*
 * A service faulted in its own domain (it touched memory of another
 * domain, the core's included): ARA names the service and the address on
 * stderr, never what is there, and ends the process. Also a service
 * domain's request the core refuses as no correct service makes it (an
 * append lane it may not have).
 */
#define ARA_EXIT_SERVICE_FAULT 13

/* memfd names; /proc/self/maps shows them as "/memfd:<name> (deleted)". */
#define ARA_MEMFD_APP "ara-app"
#define ARA_MEMFD_LIBARA "ara-libara"
#define ARA_MEMFD_ENTRY "ara-entry"
#define ARA_MEMFD_BOOT "ara-boot"

/* ELF sections of the entry object that libara tags (see entry/README.md). */
#define ARA_GATE_TEXT_SECTION ".ara_gate"
#define ARA_GATE_DATA_SECTION ".ara_gate_data"

/*
 * out: the name Linux gives a process that execve started from path (its
 * base name, at most 15 bytes), NUL-padded. libara/src/boot_comm.c.
 */
void ara_boot_comm(char out[ARA_BOOT_COMM_BYTES], const char *path);

/* A section of the entry object, as linked: sh_addr relative to the load base. */
struct ara_boot_region {
	uint64_t vaddr;
	uint64_t size;
	uint8_t sha256[ARA_SHA256_BYTES]; /* of the file bytes; zero for NOBITS */
};

/*
 * An address range that an inherited filter still guards (mapping calls on
 * it are refused): kept unmapped, so that nothing of the new image lands
 * there. At most ARA_BOOT_RESERVED_MAX over all generations.
 */
#define ARA_BOOT_RESERVED_MAX 512u
struct ara_boot_range {
	uint64_t start, end;
};

struct ara_boot {
	uint32_t magic;   /* ARA_BOOT_MAGIC */
	uint32_t version; /* ARA_BOOT_VERSION */
	uint32_t size;    /* sizeof(struct ara_boot) */
	int32_t app_fd;   /* the sealed memfds the dynamic linker was given */
	int32_t libara_fd;
	int32_t entry_fd;
	uint8_t manifest_sha256[ARA_SHA256_BYTES]; /* of the manifest file as read */
	uint8_t app_sha256[ARA_SHA256_BYTES];
	uint8_t libara_sha256[ARA_SHA256_BYTES];
	uint8_t entry_sha256[ARA_SHA256_BYTES];
	struct ara_boot_region gate_text; /* ARA_GATE_TEXT_SECTION */
	struct ara_boot_region gate_data; /* ARA_GATE_DATA_SECTION */
	/*
	 * Version 2: an image started by an ARA App's execve (libara's
	 * dom0/execve.c). ara-loader leaves them zero (interp_fd -1).
	 */
	uint64_t svc_page;  /* the system-call page the inherited filter allows; 0: none */
	int32_t interp_fd;  /* the dynamic linker's sealed copy, for the page's boot code to map */
	uint32_t reserved_count;
	uint64_t sigmask;   /* the App's signal mask at execve, restored after initialisation */
	uint8_t parent_app_sha256[ARA_SHA256_BYTES]; /* the App that called execve */
	/*
	 * The process's name (/proc/<pid>/comm), as the kernel would have set
	 * it: the base name of the file execve was given. The kernel sets
	 * the dynamic linker's (ara-loader) or a descriptor number (execve.c).
	 */
	char comm[ARA_BOOT_COMM_BYTES];
	struct ara_boot_range reserved[ARA_BOOT_RESERVED_MAX]; /* ancestors' ARA ranges */
	/*
	 * Version 3: ara-loader's own file, as it read it through
	 * /proc/self/exe; a platform's measurement of the loader (Linux IMA's)
	 * must show the same digest (docs/provisioning.md). An image started
	 * by execve inherits it from the App that called execve.
	 */
	uint8_t loader_sha256[ARA_SHA256_BYTES];
	/*
	 * Version 4: the file of the dynamic linker the first image ran
	 * (ara-loader's, which the kernel executed), by device numbers and
	 * inode, for an image started by execve: it runs a sealed copy
	 * (interp_fd), and refuses a program naming another (exec_files.c).
	 * ara-loader leaves them zero.
	 */
	uint32_t interp_major, interp_minor;
	uint64_t interp_inode;
	/*
	 * Version 5: the provisioner's public key the manifest pins (an
	 * uncompressed P-256 point: its first byte is 4), all zero if it pins
	 * none. PROVISION_FINISH opens only a DELIVER signed with it. An image
	 * started by execve keeps its caller's.
	 */
	uint8_t provisioner_pub[ARA_BOOT_KEY_BYTES];
	uint8_t pad[7];
};

#endif
