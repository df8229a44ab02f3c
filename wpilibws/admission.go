package wpilibws

import (
	"net/http"

	"github.com/frcd/frcd/internal/admit"
)

// Admission of clients (frcd issue 32): at most maxClients at once,
// maxClientsPerAddr of them from one remote address. A client that has
// sent a message the server took is useful; when a limit is reached a
// newcomer takes the place of the idlest client that is not, so idle
// connections cannot fill the server (1,000 of them once cost frcd 67 %
// of a core and its loop a 1.2 s stall); only when every client in its
// way is useful is it refused (503), counted and logged.
const (
	maxClients        = 16
	maxClientsPerAddr = 4
)

func newGate() *admit.Gate {
	return admit.New(admit.Limits{PerAddr: maxClientsPerAddr, Total: maxClients})
}

// admitClient admits r's client, or answers 503 with the reason and
// returns nil.
func (s *Server) admitClient(w http.ResponseWriter, r *http.Request) *admit.Ticket {
	tk, err := s.gate.Admit(r.RemoteAddr)
	if err != nil {
		s.mu.Lock()
		s.stats.TurnedAway++
		n := s.stats.TurnedAway
		s.mu.Unlock()
		if n == 1 || n%100 == 0 {
			s.o.Logf("wpilibws: connection from %s refused (%d so far): %v", r.RemoteAddr, n, err)
		}
		http.Error(w, "wpilibws: "+err.Error(), http.StatusServiceUnavailable)
		return nil
	}
	return tk
}
