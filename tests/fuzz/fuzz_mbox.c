// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: mbox reading.  The input's first byte picks the
 * flavour (mboxrd / mboxo) and a start offset; the rest is the mbox file,
 * read from a memory file (memfd) with mbox_open()/mbox_next() the way a
 * source reads it, and unescaped in place with mbox_unescape().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../bot/mail/mailbox.h"

#include "../../checker/banned.h"

#define MAX_MESSAGES	100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void read_mbox(const uint8_t *data, size_t size, enum mbox_flavour fl,
		      uint64_t offset)
{
	struct mbox_reader *r = NULL;
	struct sbuf msg;
	uint64_t start, next, prev = offset;
	char path[64];
	int fd, ret, n = 0;

	fd = memfd_create("fuzz-mbox", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (write_all(fd, data, size))
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (mbox_open(path, offset, fl, &r))
		goto out;
	sbuf_init(&msg, MAILBOX_MAX_MESSAGE);
	while ((ret = mbox_next(r, &msg, &start, &next)) != MAILBOX_END) {
		if (ret < 0 && ret != MAILBOX_ERR_LIMIT)
			break;
		/* positions only move forward, inside the file */
		if (start < prev || next < start || next > size)
			__builtin_trap();
		if (msg.len > next - start)
			__builtin_trap();
		if (++n > MAX_MESSAGES || (next == start && n > 1))
			__builtin_trap();	/* no progress */
		prev = next;
	}
	sbuf_release(&msg);
	mbox_close(r);
out:
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum mbox_flavour fl;
	uint64_t offset;
	size_t n;
	char *copy;

	if (size < 1)
		return 0;
	fl = (data[0] & 1) ? MBOX_O : MBOX_RD;
	data++;
	size--;
	/* mostly from the start, as the seeds are; else somewhere inside */
	offset = 0;
	if (data[-1] & 0x80)
		offset = (uint64_t)((data[-1] >> 1) & 0x3f) * size / 64;

	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	n = mbox_unescape(copy, size, fl);
	if (n > size)
		__builtin_trap();
	free(copy);

	read_mbox(data, size, fl, offset);
	return 0;
}
