# SPDX-License-Identifier: GPL-2.0-only
# A TCP listener on 127.0.0.1 that counts connections (tests/build): the
# port goes to argv[1], the count to argv[2] after each connection.
import socket
import sys

s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
with open(sys.argv[1], "w") as f:
    f.write(str(s.getsockname()[1]))
s.settimeout(900)
n = 0
while True:
    try:
        c, _ = s.accept()
    except OSError:
        break
    n += 1
    with open(sys.argv[2], "w") as f:
        f.write(str(n))
    c.close()
