/* SPDX-License-Identifier: Apache-2.0 */
/* The SQLite backend (store_sqlite.c): what its tests reach beyond store.h. */
#ifndef ARA_PROVISION_STORE_SQLITE_H
#define ARA_PROVISION_STORE_SQLITE_H

#include "store.h"

/*
 * migrate(), but only up to schema version target (1..ARA_STORE_SCHEMA_VERSION):
 * how the tests make a database of an earlier version to migrate from.
 */
int ara_store_sqlite_migrate_to(struct ara_store *s, int target, int *from);

#endif
