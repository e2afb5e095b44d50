/* SPDX-License-Identifier: GPL-2.0-only */
/* The program's version, as --version and the review mails' footer say it. */
#ifndef RB_VERSION_H
#define RB_VERSION_H

#define REVIEWBOT_VERSION "0.1.0"

#endif
