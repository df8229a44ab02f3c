//go:build cgo && roborio

package wpihal

/*
#include <stdlib.h>
#include "hal2026.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/frcd/frcd/hal"
)

const (
	numSPI = 5 // onboard CS0-CS3, MXP
	numI2C = 2 // onboard, MXP
	// maxTransfer is the longest SPI or I2C transfer, bytes (a navX
	// burst is 109).
	maxTransfer = 512
	// defaultSPIHz is the clock a Connect asking for 0 gets, WPILib's
	// default.
	defaultSPIHz = 500 * physic.KiloHertz
)

var spiNames = [numSPI]string{"onboard CS0", "onboard CS1", "onboard CS2", "onboard CS3", "MXP"}

// cBuf is C memory for transfers, so that no Go pointer reaches the HAL.
type cBuf struct {
	p unsafe.Pointer
	n int
}

func newCBuf(n int) cBuf { return cBuf{p: C.calloc(C.size_t(n), 1), n: n} }

func (c *cBuf) bytes() []byte { return unsafe.Slice((*byte)(c.p), c.n) }

func (c *cBuf) at(off int) *C.uint8_t { return (*C.uint8_t)(unsafe.Add(c.p, off)) }

func (c *cBuf) free() {
	C.free(c.p)
	c.p = nil
}

// spiPort is one SPI port. The first Connect initializes it
// (HAL_InitializeSPI); each Connect sets its clock and mode, with the chip
// select active low.
type spiPort struct {
	b    *Backend
	port int
	mu   sync.Mutex // guards what follows
	open bool
	buf  cBuf // tx in the first half, rx in the second
}

func (p *spiPort) String() string { return "roboRIO SPI " + spiNames[p.port] }

// Connect configures the port: f is the clock (0 is 500 kHz), mode an SPI
// mode 0-3 (the HAL has no half-duplex, no-chip-select or LSB-first), 8
// bits a word.
func (p *spiPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	if bits != 8 {
		return nil, fmt.Errorf("wpihal: %s: %d bits a word (the HAL sends 8): %w", p, bits, hal.ErrUnsupported)
	}
	if mode&^spi.Mode3 != 0 {
		return nil, fmt.Errorf("wpihal: %s: mode %v (the HAL has modes 0-3 only): %w", p, mode, hal.ErrUnsupported)
	}
	if f < 0 || f > 0x7FFFFFFF*physic.Hertz {
		return nil, fmt.Errorf("wpihal: %s: clock %v out of range: %w", p, f, hal.ErrUnsupported)
	}
	if f == 0 {
		f = defaultSPIHz
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.b.isClosed() {
		return nil, p.b.closedErr()
	}
	if !p.open {
		if err := p.b.status(fmt.Sprintf("HAL_InitializeSPI(%d)", p.port), C.frcd_spi_init(C.int32_t(p.port))); err != nil {
			return nil, err
		}
		p.buf = newCBuf(2 * maxTransfer)
		if err := p.b.track(p.close); err != nil {
			return nil, err
		}
		p.open = true
	}
	hz := C.int32_t(f / physic.Hertz)
	if err := p.b.status("HAL_SetSPIChipSelectActiveLow", C.frcd_spi_configure(C.int32_t(p.port), hz, C.int32_t(mode))); err != nil {
		return nil, err
	}
	return &spiConn{p: p}, nil
}

func (p *spiPort) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	C.frcd_spi_close(C.int32_t(p.port))
	p.buf.free()
	p.open = false
}

type spiConn struct{ p *spiPort }

func (c *spiConn) String() string { return c.p.String() }

// Duplex is conn.Full: SPI clocks both ways at once.
func (c *spiConn) Duplex() conn.Duplex { return conn.Full }

// Tx is one chip-select period of max(len(w), len(r)) bytes; w is padded
// with zeros, what is read beyond r is dropped.
func (c *spiConn) Tx(w, r []byte) error {
	p := c.p
	n := max(len(w), len(r))
	if n > maxTransfer {
		return fmt.Errorf("wpihal: %s: %d bytes in one transfer (at most %d): %w", p, n, maxTransfer, hal.ErrUnsupported)
	}
	if n == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.open || p.b.isClosed() {
		return p.b.closedErr()
	}
	b := p.buf.bytes()
	clear(b[copy(b[:n], w):n])
	got := C.frcd_spi_transaction(C.int32_t(p.port), p.buf.at(0), p.buf.at(maxTransfer), C.int32_t(n))
	if int(got) != n {
		return fmt.Errorf("wpihal: %s: HAL_TransactionSPI of %d bytes returned %d", p, n, got)
	}
	copy(r, b[maxTransfer:maxTransfer+n])
	return nil
}

// TxPackets does each packet as a transfer of its own.
func (c *spiConn) TxPackets(pkts []spi.Packet) error {
	for i := range pkts {
		if bpw := pkts[i].BitsPerWord; bpw != 0 && bpw != 8 {
			return fmt.Errorf("wpihal: %s: %d bits a word (the HAL sends 8): %w", c.p, bpw, hal.ErrUnsupported)
		}
		if err := c.Tx(pkts[i].W, pkts[i].R); err != nil {
			return err
		}
	}
	return nil
}

// i2cBus is one I2C port, initialized when the backend hands it out.
type i2cBus struct {
	b    *Backend
	port int
	mu   sync.Mutex
	buf  cBuf // what is written in the first half, what is read in the second
}

func (i *i2cBus) String() string {
	return [numI2C]string{"roboRIO I2C onboard", "roboRIO I2C MXP"}[i.port]
}

// Tx writes w to the device at addr, then reads len(r) bytes from it
// (HAL_TransactionI2C; HAL_WriteI2C or HAL_ReadI2C when one is empty).
func (i *i2cBus) Tx(addr uint16, w, r []byte) error {
	if addr > 0x7F {
		return fmt.Errorf("wpihal: %s: address %#x is not 7-bit: %w", i, addr, hal.ErrUnsupported)
	}
	if len(w) > maxTransfer || len(r) > maxTransfer {
		return fmt.Errorf("wpihal: %s: %d bytes written, %d read (at most %d each): %w", i, len(w), len(r), maxTransfer, hal.ErrUnsupported)
	}
	if len(w) == 0 && len(r) == 0 {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.buf.p == nil || i.b.isClosed() {
		return i.b.closedErr()
	}
	b := i.buf.bytes()
	copy(b, w)
	got := C.frcd_i2c_transaction(C.int32_t(i.port), C.int32_t(addr), i.buf.at(0), C.int32_t(len(w)),
		i.buf.at(maxTransfer), C.int32_t(len(r)))
	if got < 0 {
		return fmt.Errorf("wpihal: %s: transfer to %#02x failed (no device acknowledged, or the bus is stuck)", i, addr)
	}
	copy(r, b[maxTransfer:])
	return nil
}

// SetSpeed is not supported: the roboRIO's I2C clock is fixed.
func (i *i2cBus) SetSpeed(f physic.Frequency) error {
	return fmt.Errorf("wpihal: %s: the clock is fixed: %w", i, hal.ErrUnsupported)
}

func (i *i2cBus) close() {
	i.mu.Lock()
	defer i.mu.Unlock()
	C.frcd_i2c_close(C.int32_t(i.port))
	i.buf.free()
}
