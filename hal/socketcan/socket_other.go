//go:build !linux

package socketcan

import (
	"fmt"

	"github.com/frcd/frcd/hal"
)

// dial fails: SocketCAN (and go-daq/canbus) is Linux only.
func dial(name string, _ Options) (conn, error) {
	return nil, fmt.Errorf("%s: SocketCAN needs Linux: %w", name, hal.ErrUnsupported)
}

// isNetDown is false: no socket here.
func isNetDown(error) bool { return false }
