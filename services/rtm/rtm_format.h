/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RTM's evidence formats (docs/rtm.md), shared by DOM0, which writes
 * them, and ara-verify, which reads them. All integers little-endian.
 *
 * Segment: ARA_RTM_SEGMENT_ENTRIES entries of 8 bytes (ara/rtm.h), exactly
 * as DOM0 logged them. The chain over a run's sealed segments:
 *
 *   H_0     = SHA-256("ARA-RTM-v1 chain" || run_id)       (16-byte label)
 *   H_{i+1} = SHA-256(H_i || segment_i)
 *
 * Report and checkpoint (one layout; a checkpoint has no pending entries
 * and is signed at the moment DOM0 sealed its segment):
 *
 *   off  size
 *     0     8  magic "ARARTM01"
 *     8     4  kind: ARA_RTM_DOC_REPORT or ARA_RTM_DOC_CHECKPOINT
 *    12     4  module_count (<= ARA_RTM_MODULES_MAX)
 *    16    32  nonce: the verifier's (report), the batch nonce (checkpoint)
 *    48    32  run_id: random, drawn by DOM0 at the run's first entry
 *    80    32  chain: H_sealed
 *   112     8  sequence: this document's number in the run, from 1
 *              (reports and checkpoints share the count)
 *   120     8  entries: entries logged in the run (sealed and pending)
 *   128     8  sealed: segments sealed (the chain's length)
 *   136     8  dropped: 0 (DOM0 never replaces a sealed segment before its
 *              export; a verifier still refuses any other value)
 *   144     8  refused: RTM_LOG calls refused (unknown kind, bad address)
 *   152    32  app_sha256: the App digest ara-loader measured (ara_info)
 *   184    65  instance_pub: the signer, the ARA instance key (SEC1,
 *              uncompressed); its evidence binds it to the digests
 *   249     1  flags: ARA_RTM_DOC_FINAL (a final report: the log closed
 *              with it), ARA_RTM_DOC_MODULES_CHANGED (the process's
 *              executable file mappings differ from those at ARA's
 *              initialisation, which the module records name)
 *   250     2  zero
 *   252     4  pending_count: entries after the last sealed segment
 *              (0 in a checkpoint)
 *   256        module_count module records, then pending_count entries,
 *              then the signature
 *
 *   module record (the process's executable file mappings and [vdso],
 *   from the kernel's /proc/self/maps when ARA initialised, before any
 *   App code ran; later executable mappings are anonymous copies):
 *     0     8  start
 *     8     8  end
 *    16     8  file offset of start
 *    24     4  path_len (1..ARA_RTM_MODULE_PATH_MAX)
 *    28     4  zero
 *    32        path, path_len bytes, zero-padded to a multiple of 8
 *
 *   signature: 64 bytes, ECDSA P-256 r || s by instance_pub over
 *   SHA-256("ARA-PROVISION-v1 for a module" with its NUL || D), where
 *   D = SHA-256("ARA-RTM-v1 report" (17 bytes) || every byte before it):
 *   the RTM hashes the document to D, and provisioning, the instance
 *   key's one holder, signs D under its label for a module
 *   (ara_provision_module_hash, services/provision/binding.h).
 */
#ifndef ARA_RTM_FORMAT_H
#define ARA_RTM_FORMAT_H

#include "ara/rtm.h"

#define ARA_RTM_MAGIC "ARARTM01"
#define ARA_RTM_CHAIN_LABEL "ARA-RTM-v1 chain" /* 16 bytes, no NUL */
#define ARA_RTM_CHAIN_LABEL_BYTES 16u
#define ARA_RTM_SIGN_LABEL "ARA-RTM-v1 report" /* 17 bytes, no NUL */
#define ARA_RTM_SIGN_LABEL_BYTES 17u

enum ara_rtm_doc_kind {
	ARA_RTM_DOC_REPORT = 1,
	ARA_RTM_DOC_CHECKPOINT = 2,
};

/* The flags byte. */
#define ARA_RTM_DOC_FINAL 0x1u
#define ARA_RTM_DOC_MODULES_CHANGED 0x2u
#define ARA_RTM_DOC_FLAGS_KNOWN (ARA_RTM_DOC_FINAL | ARA_RTM_DOC_MODULES_CHANGED)

#define ARA_RTM_HEADER_BYTES 256u
#define ARA_RTM_MODULE_FIXED_BYTES 32u
#define ARA_RTM_SIG_BYTES 64u
#define ARA_RTM_PUB_BYTES 65u
#define ARA_RTM_HASH_BYTES 32u

/* Header field offsets. */
#define ARA_RTM_OFF_KIND 8u
#define ARA_RTM_OFF_MODULES 12u
#define ARA_RTM_OFF_NONCE 16u
#define ARA_RTM_OFF_RUN_ID 48u
#define ARA_RTM_OFF_CHAIN 80u
#define ARA_RTM_OFF_SEQUENCE 112u
#define ARA_RTM_OFF_ENTRIES 120u
#define ARA_RTM_OFF_SEALED 128u
#define ARA_RTM_OFF_DROPPED 136u
#define ARA_RTM_OFF_REFUSED 144u
#define ARA_RTM_OFF_APP 152u
#define ARA_RTM_OFF_PUB 184u
#define ARA_RTM_OFF_FLAGS 249u
#define ARA_RTM_OFF_PENDING 252u

#endif
