// SPDX-License-Identifier: GPL-2.0-only
/* A module that loads and unloads cleanly (reviewbot's QEMU load test). */
#include <linux/init.h>
#include <linux/module.h>

static int __init rbclean_init(void)
{
	pr_info("rbclean: hello\n");
	return 0;
}

static void __exit rbclean_exit(void)
{
	pr_info("rbclean: bye\n");
}

module_init(rbclean_init);
module_exit(rbclean_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("reviewbot load test: clean module");
