// SPDX-License-Identifier: GPL-2.0-only
/*
 * A hostile module (reviewbot's QEMU load test): it pulls a file of the
 * build host into itself in two ways (.incbin split across string
 * literals, which boot_series()'s text check refuses since issue 33 but
 * boot_module(), the build itself, does not look for; and #include of a
 * macro, which no text check sees) and prints it at load.  The test
 * replaces @SECRET@ with the path of a secret file.  In the sandbox the
 * file is not there: the module does not build.
 */
#include <linux/init.h>
#include <linux/module.h>

#define RBLEAK_PATH "@SECRET@.h"
#include RBLEAK_PATH

asm(".section .rodata\n"
    ".global rbleak_blob\n"
    "rbleak_blob:\n"
    ".in" "cbin \"@SECRET@\"\n"
    ".byte 0\n"
    ".previous\n");
extern const char rbleak_blob[];

static int __init rbleak_init(void)
{
	pr_info("rbleak: %s %s\n", rbleak_blob, rbleak_text);
	return 0;
}

static void __exit rbleak_exit(void)
{
}

module_init(rbleak_init);
module_exit(rbleak_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("reviewbot load test: module that reads a file of the host");
