package ddstest

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"
	"unsafe"

	"github.com/frcd/frcd/internal/tooltest"
	"golang.org/x/sys/unix"
)

// Lose drops percent % of the IPv4 packets every socket of the calling
// process's network namespace receives, at random, each independently,
// until the test ends: what `tc qdisc add dev lo root netem loss P%` does
// to a namespace's loopback traffic (each packet crosses lo once), for a
// kernel without sch_netem (this machine's has no tc qdiscs, classifiers
// or actions, and no iptables or nft). It loads a five-instruction BPF
// program of type BPF_PROG_TYPE_NETFILTER (Linux 6.4 and later) that
// draws bpf_get_prandom_u32() % 100 and answers NF_DROP under percent,
// NF_ACCEPT otherwise, and links it to the namespace's NF_INET_LOCAL_IN
// hook; closing the link (the test's cleanup) removes it. It refuses to
// run outside a namespace that tooltest.InNetns made, so that no test
// drops the host's packets.
func Lose(t *testing.T, percent int) {
	t.Helper()
	if !tooltest.InsideNetnsOf(t) {
		t.Fatal("ddstest.Lose outside the test's own network namespace")
	}
	if percent < 0 || percent > 100 {
		t.Fatalf("ddstest.Lose: %d %%", percent)
	}
	fd, err := loseLink(percent)
	if err != nil {
		t.Fatalf("ddstest.Lose: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
}

// The eBPF instructions (linux/bpf.h, kernel Documentation/bpf/standardization/instruction-set.rst).
type bpfInsn struct {
	code uint8
	regs uint8 // dst in the low nibble, src in the high one
	off  int16
	imm  int32
}

const (
	bpfCall     = 0x85 // BPF_JMP | BPF_CALL
	bpfExit     = 0x95 // BPF_JMP | BPF_EXIT
	bpfMod32K   = 0x94 // BPF_ALU | BPF_MOD | BPF_K: w0 %= imm
	bpfJltK     = 0xa5 // BPF_JMP | BPF_JLT | BPF_K
	bpfMov64K   = 0xb7 // BPF_ALU64 | BPF_MOV | BPF_K
	getPrandom  = 7    // BPF_FUNC_get_prandom_u32
	nfDrop      = 0
	nfAccept    = 1
	linkPrioLow = 100 // after conntrack and the filter table's priorities: nothing else here
)

// loseLink loads the program and links it to the hook; the link's fd.
func loseLink(percent int) (int, error) {
	prog := []bpfInsn{
		{code: bpfCall, imm: getPrandom},
		{code: bpfMod32K, imm: 100},
		{code: bpfJltK, off: 2, imm: int32(percent)},
		{code: bpfMov64K, imm: nfAccept},
		{code: bpfExit},
		{code: bpfMov64K, imm: nfDrop},
		{code: bpfExit},
	}
	license := []byte("GPL\x00")
	logBuf := make([]byte, 4096)
	var load [128]byte // union bpf_attr, BPF_PROG_LOAD's fields
	put32(load[0:], unix.BPF_PROG_TYPE_NETFILTER)
	put32(load[4:], uint32(len(prog)))
	put64(load[8:], uint64(uintptr(unsafe.Pointer(&prog[0]))))
	put64(load[16:], uint64(uintptr(unsafe.Pointer(&license[0]))))
	put32(load[24:], 1) // log_level
	put32(load[28:], uint32(len(logBuf)))
	put64(load[32:], uint64(uintptr(unsafe.Pointer(&logBuf[0]))))
	put32(load[68:], unix.BPF_NETFILTER) // expected_attach_type
	// The verifier gives up with EAGAIN when a signal is pending (the Go
	// runtime's preemption signal, SIGURG, under load); libbpf retries the
	// load for that too.
	var r uintptr
	var errno unix.Errno
	for range 20 {
		if r, _, errno = unix.Syscall(unix.SYS_BPF, unix.BPF_PROG_LOAD, uintptr(unsafe.Pointer(&load[0])), unsafe.Sizeof(load)); errno != unix.EAGAIN {
			break
		}
	}
	runtime.KeepAlive(prog)
	runtime.KeepAlive(license)
	if errno != 0 {
		return -1, fmt.Errorf("BPF_PROG_LOAD: %v: %s", errno, cString(logBuf))
	}
	progFD := int(r)
	defer unix.Close(progFD)
	var link [64]byte // BPF_LINK_CREATE's fields
	put32(link[0:], uint32(progFD))
	put32(link[8:], unix.BPF_NETFILTER)
	put32(link[16:], unix.NFPROTO_IPV4)
	put32(link[20:], unix.NF_INET_LOCAL_IN)
	put32(link[24:], linkPrioLow)
	r, _, errno = unix.Syscall(unix.SYS_BPF, unix.BPF_LINK_CREATE, uintptr(unsafe.Pointer(&link[0])), unsafe.Sizeof(link))
	if errno != 0 {
		return -1, fmt.Errorf("BPF_LINK_CREATE (netfilter, IPv4 local in): %v", errno)
	}
	return int(r), nil
}

func put32(b []byte, v uint32) { binary.NativeEndian.PutUint32(b, v) }
func put64(b []byte, v uint64) { binary.NativeEndian.PutUint64(b, v) }

func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
