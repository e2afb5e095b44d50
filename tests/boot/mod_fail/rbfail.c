// SPDX-License-Identifier: GPL-2.0-only
/* A module whose init fails: no device (reviewbot's QEMU load test). */
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init rbfail_init(void)
{
	return -ENODEV;
}

static void __exit rbfail_exit(void)
{
}

module_init(rbfail_init);
module_exit(rbfail_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("reviewbot load test: module whose init fails");
