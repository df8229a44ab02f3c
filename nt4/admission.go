package nt4

import (
	"net/http"

	"github.com/frcd/frcd/internal/admit"
)

// Admission of clients (frcd issue 32): at most maxClients main
// connections, and as many RTT ones, maxClientsPerAddr of each from one
// remote address. A client that has subscribed or published is useful;
// when a limit is reached a newcomer takes the place of the idlest client
// that is not (one that only connected and answers pings), so a handful
// of such clients cannot lock a real dashboard out; only when every client
// in its way is useful is it refused (503), counted and logged.
const maxClientsPerAddr = 8

// admission holds the gates of the main and the RTT connections.
type admission struct {
	main, rtt *admit.Gate
}

func newAdmission() admission {
	l := admit.Limits{PerAddr: maxClientsPerAddr, Total: maxClients}
	return admission{main: admit.New(l), rtt: admit.New(l)}
}

// admitClient admits r's client through gate g, or answers 503 with the
// reason and returns nil.
func (s *Server) admitClient(w http.ResponseWriter, r *http.Request, g *admit.Gate, what string) *admit.Ticket {
	tk, err := g.Admit(r.RemoteAddr)
	if err != nil {
		if n := s.turnedAway(); n == 1 || n%100 == 0 {
			s.o.Logf("nt4: %s connection from %s refused (%d so far): %v", what, r.RemoteAddr, n, err)
		}
		http.Error(w, "nt4: "+err.Error(), http.StatusServiceUnavailable)
		return nil
	}
	return tk
}

// turnedAway counts one connection refused for the limits.
func (s *Server) turnedAway() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.TurnedAway++
	return s.stats.TurnedAway
}

// admissionStats fills the admission counts of st.
func (s *Server) admissionStats(st *Stats) {
	m, r := s.gates.main.Stats(), s.gates.rtt.Stats()
	st.Evicted = m.Evicted + r.Evicted
}

// active notes a control message of c's: subscribing or publishing makes
// it useful, which no newcomer evicts.
func (c *client) active(method string) {
	if c.tk != nil {
		c.tk.Touch(method == "subscribe" || method == "publish")
	}
}
