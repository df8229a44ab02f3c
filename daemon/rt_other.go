//go:build !linux

package daemon

import "errors"

// raisePriority is Linux's only.
func raisePriority(int) (func(), error) {
	return nil, errors.New("a real-time priority for the loop's thread is Linux's only")
}

func threadPolicy() int { return 0 }
