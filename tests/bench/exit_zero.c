/* SPDX-License-Identifier: Apache-2.0 */
/* What spawn_bench starts: a dynamically linked program that does nothing. */
int main(void)
{
	return 0;
}
