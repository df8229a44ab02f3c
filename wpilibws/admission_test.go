package wpilibws_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/coder/websocket"
)

// TestAdmission: 200 idle clients (issue 32's flood, bounded) keep at most
// four places from their address, each newcomer evicting the idlest, and
// a real client that then connects to /wpilibws gets the robot's state.
// Four clients from one address that sent messages are not evicted: a
// fifth is refused (503, counted), and one from another address is served.
func TestAdmission(t *testing.T) {
	d := stepped(t, true)
	addr := d.WS.Addr().String()
	from := func(ip net.IP, path string) (*websocket.Conn, int) {
		t.Helper()
		dl := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}}
		hc := &http.Client{Transport: &http.Transport{DialContext: dl.DialContext}}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		c, res, err := websocket.Dial(ctx, "ws://"+addr+path, &websocket.DialOptions{HTTPClient: hc})
		if err != nil {
			if res == nil {
				t.Fatal(err)
			}
			return nil, res.StatusCode
		}
		t.Cleanup(func() { c.CloseNow() })
		return c, http.StatusSwitchingProtocols
	}
	lo := net.IPv4(127, 0, 0, 1)
	for i := range 200 {
		if _, st := from(lo, fmt.Sprintf("/wpilibws/idle%d", i)); st != http.StatusSwitchingProtocols {
			t.Fatalf("idle client %d: %d", i, st)
		}
	}
	real := dial(t, d.WS, "/wpilibws")
	real.until("the state, to the real client", func() bool { return real.get("DriverStation ", ">enabled") == "true" })
	eventually(t, "the evicted gone", func() bool { return d.WS.Stats().Clients <= 4 })
	if st := d.WS.Stats(); st.Evicted < 197 {
		t.Errorf("after 200 idle clients and a real one: %+v", st)
	}

	other := net.IPv4(127, 0, 0, 2)
	for i := range 4 {
		c, st := from(other, fmt.Sprintf("/wpilibws/busy%d", i))
		if st != http.StatusSwitchingProtocols {
			t.Fatalf("busy client %d: %d", i, st)
		}
		// A message the server takes, then its answer (the joystick's
		// state comes back): the message was handled.
		w := &wsClient{t: t, c: c, state: map[string]map[string]json.RawMessage{}}
		w.send(fmt.Sprintf(`{"type":"Joystick","device":"%d","data":{">axes":[0.5]}}`, i))
		w.until("the joystick's axes back", func() bool {
			return w.get("Joystick", "") == "" && w.get(fmt.Sprintf("Joystick %d", i), ">axes") == "[0.5]"
		})
	}
	if _, st := from(other, "/wpilibws/fifth"); st != http.StatusServiceUnavailable || d.WS.Stats().TurnedAway != 1 {
		t.Fatalf("a fifth client from one address with 4 active: %d, %+v", st, d.WS.Stats())
	}
	again := dial(t, d.WS, "/wpilibws/again")
	again.until("the state, to a client from another address", func() bool { return again.get("DriverStation ", ">enabled") == "true" })
}
