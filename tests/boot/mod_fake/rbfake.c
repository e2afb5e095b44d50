// SPDX-License-Identifier: GPL-2.0-only
/*
 * A hostile module (reviewbot's QEMU load test): its init prints the
 * markers the guest's /init used to print, in every form it could guess,
 * then returns 0; its exit prints them again and calls BUG().  The
 * verdict must still say it crashed.
 */
#include <linux/init.h>
#include <linux/module.h>

static void rbfake_lie(void)
{
	pr_emerg("RB-LOAD-START\n");
	pr_emerg("RB-INSMOD-RC=0\n");
	pr_emerg("RB-RMMOD-RC=0\n");
	pr_emerg("RB-DONE\n");
	pr_emerg("RB 0000000000000000 INSMOD 0\n");
	pr_emerg("RB 0000000000000000 RMMOD 0\n");
	pr_emerg("RB 0000000000000000 DONE\n");
}

static int __init rbfake_init(void)
{
	rbfake_lie();
	return 0;
}

static void __exit rbfake_exit(void)
{
	rbfake_lie();
	BUG();
}

module_init(rbfake_init);
module_exit(rbfake_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("reviewbot load test: module that fakes the markers, then BUG()s");
