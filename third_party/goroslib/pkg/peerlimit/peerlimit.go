// Package peerlimit bounds the connections a server holds (Pool): one
// remote address cannot take every slot of a shared limit and lock other
// sources out, remote clients cannot take this computer's slots, and a
// slow client's half-open connections make room for new ones. (frcd's
// fork: not in goroslib v2.1.5.)
package peerlimit

import (
	"net"
)

// Host is addr's IP address as text (the whole address when it has no
// IP: a Unix socket's).
func Host(addr net.Addr) string {
	if t, ok := addr.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	if addr == nil {
		return ""
	}
	if h, _, err := net.SplitHostPort(addr.String()); err == nil {
		return h
	}
	return addr.String()
}
