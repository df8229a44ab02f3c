//go:build linux

package daemon

import (
	"fmt"
	"runtime"
	"syscall"
	"unsafe"
)

// schedFIFO and schedOther are Linux's scheduling policies (sched.h).
const (
	schedFIFO  = 1
	schedOther = 0
)

// raisePriority locks the calling goroutine to its thread and gives the
// thread the real-time policy SCHED_FIFO at prio (1-99), as WPILib's robot
// programs run their loop where CAP_SYS_NICE allows (WPILib's deploy grants
// it: setcap cap_sys_nice+eip). The returned restore puts the thread back
// to the normal policy and unlocks it. Without the capability (or as a
// user whose RLIMIT_RTPRIO is 0) it fails with EPERM, the goroutine
// unlocked.
func raisePriority(prio int) (restore func(), err error) {
	runtime.LockOSThread()
	if err := setScheduler(schedFIFO, prio); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("SCHED_FIFO priority %d for the loop's thread: %w", prio, err)
	}
	return func() {
		setScheduler(schedOther, 0) // lowering one's own priority needs no capability
		runtime.UnlockOSThread()
	}, nil
}

// setScheduler is sched_setscheduler(2) on the calling thread.
func setScheduler(policy, prio int) error {
	param := struct{ prio int32 }{int32(prio)}
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, 0, uintptr(policy), uintptr(unsafe.Pointer(&param))); e != 0 {
		return e
	}
	return nil
}

// threadPolicy is the calling thread's scheduling policy.
func threadPolicy() int {
	p, _, _ := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, 0, 0, 0)
	return int(p)
}
