/* SPDX-License-Identifier: Apache-2.0 */
/* Not compiled: the fixture module's own header (module.c), which the check lets pass. */
