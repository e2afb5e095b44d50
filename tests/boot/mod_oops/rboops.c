// SPDX-License-Identifier: GPL-2.0-only
/* A module whose init dereferences NULL (reviewbot's QEMU load test). */
#include <linux/init.h>
#include <linux/module.h>

struct rboops_dev {
	int irq;
};

static struct rboops_dev *rboops_find(void)
{
	/* Stands for a lookup that finds no hardware. */
	return NULL;
}

static int __init rboops_init(void)
{
	struct rboops_dev *d = rboops_find();

	pr_info("rboops: irq %d\n", READ_ONCE(d->irq));
	return 0;
}

static void __exit rboops_exit(void)
{
}

module_init(rboops_init);
module_exit(rboops_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("reviewbot load test: module that oopses in init");
