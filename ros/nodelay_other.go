//go:build !linux

package ros

// setNoDelay does nothing off Linux (it reads /proc/self/fd there).
func setNoDelay(port int) int { return 0 }
