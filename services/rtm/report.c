/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RTM_REPORT (ara/rtm.h): the run's state, signed over the verifier's
 * nonce, written straight into the App's buffer (services/rtm/doc.c); a
 * final one closes the log (log.c).
 */
#include "ara/rtm.h"
#include "ara/service.h"
#include "rtm_state.h"

static enum ara_status rtm_report(void *arg)
{
	struct ara_rtm_report_arg *a = arg;
	struct ara_rtm_sink out = { .app = a->out, .cap = a->out_cap };
	int final = (a->flags & ARA_RTM_REPORT_FINAL) != 0;
	struct ara_rtm *r;
	enum ara_status st;
	uint32_t pending;

	if ((a->flags & ~ARA_RTM_REPORT_FINAL) || a->reserved)
		return ARA_E_INVAL;
	if (!(r = ara_rtm_lock()))
		return ARA_E_NOMEM;
	/* final: no entry can join the open segment from here on. */
	pending = ara_rtm_pending(r, final);
	st = ara_rtm_write_doc(r, ARA_RTM_DOC_REPORT, final, pending, a->nonce, &out);
	/* Closed once the final report is the App's: no transfer can follow it. */
	if (final)
		ara_rtm_close(r, pending, st == ARA_OK);
	ara_rtm_unlock();
	a->out_len = out.len;
	return st;
}

ARA_SERVICE(svc_rtm_report, .fid = ARA_FID_RTM_REPORT, .flags = ARA_SVC_IN | ARA_SVC_OUT | ARA_SVC_SIMD,
	    .arg_size = sizeof(struct ara_rtm_report_arg), .name = "rtm_report",
	    .module = &ara_rtm_module, .handler = rtm_report);
