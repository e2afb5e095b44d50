# what a hostile series adds to drivers/misc/Makefile (tests/build): the
# test fills in @SECRET@ (a password file of the host), @OUTSIDE@ (a
# folder outside the trees) and @PORT@ (a listener on 127.0.0.1)
HOSTILE_READ := $(shell cat @SECRET@ 2>&1)
HOSTILE_W1 := $(shell echo "$(HOSTILE_READ)" > @OUTSIDE@/written 2>&1)
HOSTILE_W2 := $(shell cp @SECRET@ $(objtree)/leaked; echo "$(HOSTILE_READ)" > $(objtree)/read)
HOSTILE_W3 := $(shell touch $(srctree)/PLANTED-SRC > $(objtree)/touch 2>&1; touch $(objtree)/PLANTED-OBJ)
HOSTILE_ID := $(shell id -u > $(objtree)/uid; hostname > $(objtree)/hostname)
HOSTILE_NET := $(shell python3 -c 'import socket; socket.create_connection(("127.0.0.1", @PORT@), 3)' > $(objtree)/net 2>&1)
ccflags-y += -DHOSTILE_SECRET='"$(HOSTILE_READ)"'
HOSTILE_HOST := $(shell ls /usr/local /usr/src 2>&1; head -2 /proc/cpuinfo /proc/meminfo /proc/loadavg 2>&1; uname -r)
HOSTILE_H1 := $(shell echo "$(HOSTILE_HOST)" > $(objtree)/host; cat /proc/cpuinfo > $(objtree)/cpuinfo)
HOSTILE_H2 := $(shell dd if=/dev/zero of=/tmp/fill bs=1M count=200 > $(objtree)/tmpfill 2>&1; rm -f /tmp/fill)
$(warning LEAK-W $(HOSTILE_HOST))
$(info drivers/misc/dummy-irq.c:20:1: warning: LEAK-I $(HOSTILE_HOST) [-Wunused-variable])
$(info drivers/misc/dummy-irq.c:21:1: error: LEAK-E $(HOSTILE_HOST))
