/* SPDX-License-Identifier: Apache-2.0 */
/* DOM2 code in the entry object: the App calls it directly. */
#include "ara/ara.h"

const char *ara_strerror(int status)
{
	static const char *const text[ARA_STATUS_COUNT] = {
		[ARA_OK] = "success",
		[ARA_E_NOT_READY] = "ARA is not initialised in this process, or the caller is not in DOM2",
		[ARA_E_NOFUNC] = "no service has this function ID",
		[ARA_E_INVAL] = "malformed request",
		[ARA_E_FAULT] = "argument is not readable/writable App memory",
		[ARA_E_BUSY] = "every DOM0 stack is in use",
		[ARA_E_NOMEM] = "DOM0 heap exhausted",
		[ARA_E_NOTSUP] = "not supported by this build",
		[ARA_E_SECURITY] = "request violates ARA's policy",
		[ARA_E_INTERNAL] = "internal error in a service",
		[ARA_E_NO_EVIDENCE] = "no platform evidence in this process (ARA_EVIDENCE unset, or a forked child)",
		[ARA_E_REFUSED] = "the provisioner refused",
		[ARA_E_BADMSG] = "a provisioning message did not decode or verify",
		[ARA_E_NOENT] = "no such provisioning session or secret handle",
		[ARA_RTM_SEGMENT_READY] = "an RTM log segment is sealed and waits for RTM_EXPORT",
		[ARA_RTM_LOG_FULL] = "the RTM log is full until its sealed segment is exported",
		[ARA_E_PROVISIONER] = "the provisioner did not prove the key the manifest pins",
	};

	if (status < 0 || status >= ARA_STATUS_COUNT)
		return "unknown status";
	return text[status];
}
