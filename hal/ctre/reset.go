//go:build (ctre || roborio) && cgo

// A Talon FX's reboot, as Phoenix 6 shows it: its sticky BootDuringEnable
// fault.

package ctre

/*
#include "phoenix.h"
*/
import "C"

// bootSign tells a Talon FX's reboot from its sticky BootDuringEnable
// fault ("Device boot while detecting the enable signal", phoenix6 26.1.0
// get_sticky_fault_boot_during_enable: STICKY_FAULT_BOOT_DURING_ENABLE,
// SPN 10014): a Talon FX that browns out or loses power mid-match boots
// while the robot is enabled and sets it, and a sticky fault stays set
// until cleared (v6.docs.ctr-electronics.com "Device Faults": sticky
// faults "assert persistently and stay asserted until they are manually
// cleared"). So a set sticky fault is a reboot, reported once; it is
// then cleared (CLEAR_STICKY_FAULT_BOOT_DURING_ENABLE, SPN 10015, as
// phoenix6's clear_sticky_fault_boot_during_enable does) so that the next
// reboot sets it again. The sticky fault's signal comes at CTRE's default
// 4 Hz, so it may read set for a while after the clear: latched keeps
// that from being a second reboot until it has read clear. A reboot while
// the robot is disabled does not set it (the fault is only for a boot
// during enable); frcd's daemon sees it when the Talon's statuses stop
// and come back, but cannot tell it from a CAN dropout then.
//
// Its signal has C arrays of its own (p6Dev.signals): only the daemon's
// configure goroutine calls it (devices.ctreSetup), apart from the loop's
// reads and the diagnostics' health.
type bootSign struct {
	d       *p6Dev
	val     [1]float64
	latched bool // reported, not yet read clear
}

func newBootSign(d *p6Dev) bootSign { return bootSign{d: d.signals([]int{spnStickyBootDuringEnable})} }

// bootClearTimeout is how long the clear may take to be acknowledged:
// phoenix6's clear_sticky_fault_* default, 0.1 s.
const bootClearTimeout = 0.1

// HasResetOccurred reports whether the Talon FX has rebooted (while
// enabled) since the last call, from its sticky BootDuringEnable fault,
// and clears the fault; an error when the fault cannot be read (the
// Talon not answering).
func (t *talonFX) HasResetOccurred() (bool, error) {
	b := &t.boot
	if err := b.d.read(b.val[:]); err != nil {
		return false, err
	}
	if b.val[0] == 0 {
		b.latched = false
		return false, nil
	}
	reset := !b.latched
	b.latched = true
	// A clear not acknowledged is tried again at the next call (the
	// fault still reads set, latched): the reboot is reported once.
	_ = statusErr("c_ctre_phoenix6_set_configs", C.frcd_p6_clear_sticky(b.d.bus, b.d.hash, spnClearBootDuringEnable, bootClearTimeout))
	return reset, nil
}
