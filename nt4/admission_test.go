package nt4_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/nt4/wire"
)

// dialFrom opens a plain NT4 connection from local address ip, reading
// (and so answering pings) until the test ends; it returns the handshake's
// HTTP status when it is refused. With a subscribe message, it sends it
// and waits for the server's first announcement (the subscription taken).
func dialFrom(t *testing.T, addr string, ip net.IP, name, subscribe string) (c *websocket.Conn, status int) {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}}
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws://"+addr+"/nt/"+name, &websocket.DialOptions{HTTPClient: hc, Subprotocols: []string{wire.ProtoV41}})
	if err != nil {
		if res == nil {
			t.Fatal(err)
		}
		return nil, res.StatusCode
	}
	if subscribe != "" {
		if err := c.Write(ctx, websocket.MessageText, []byte(subscribe)); err != nil {
			t.Fatal(err)
		}
		for typ := websocket.MessageBinary; typ != websocket.MessageText; {
			if typ, _, err = c.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { c.CloseNow(); <-done })
	return c, http.StatusSwitchingProtocols
}

// TestAdmission: 32 clients that only connect and answer pings (the lock-
// out of issue 32) no longer fill the server against a real dashboard:
// at most 8 of them stay from their address, each newcomer taking the
// place of the idlest, and a dashboard from the same address is served.
// Clients that subscribed are not evicted: a ninth useful client from one
// address is refused (503, counted), and a dashboard from another address
// is served all the same.
func TestAdmission(t *testing.T) {
	d, step := stepped(t)
	addr := d.NT.Addr().String()
	lo := net.IPv4(127, 0, 0, 1)
	for i := range 32 {
		if _, st := dialFrom(t, addr, lo, fmt.Sprintf("idle%d", i), ""); st != http.StatusSwitchingProtocols {
			t.Fatalf("idle client %d: %d", i, st)
		}
	}
	dash := dial(t, d, "dashboard")
	dash.send(`{"method":"subscribe","params":{"topics":["/frcd/loop/cycles"],"subuid":1,"options":{}}}`)
	dash.until("the dashboard gets values", step, func() bool { return len(dash.values["/frcd/loop/cycles"]) > 0 })
	if st := d.NT.Stats(); st.Evicted < 25 || st.Clients > 8 {
		t.Errorf("after 32 idle clients and a dashboard: %+v", st)
	}

	other := net.IPv4(127, 0, 0, 2)
	sub := `[{"method":"subscribe","params":{"topics":["/frcd/ds/"],"subuid":1,"options":{"prefix":true}}}]`
	for i := range 8 {
		if _, st := dialFrom(t, addr, other, fmt.Sprintf("busy%d", i), sub); st != http.StatusSwitchingProtocols {
			t.Fatalf("busy client %d: %d", i, st)
		}
	}
	if _, st := dialFrom(t, addr, other, "ninth", ""); st != http.StatusServiceUnavailable || d.NT.Stats().TurnedAway != 1 {
		t.Fatalf("a ninth client from one address with 8 subscribed was admitted: %+v", d.NT.Stats())
	}
	dash2 := dial(t, d, "dashboard2")
	dash2.send(`{"method":"subscribe","params":{"topics":["/frcd/loop/cycles"],"subuid":1,"options":{}}}`)
	dash2.until("a dashboard from another address gets values", step, func() bool { return len(dash2.values["/frcd/loop/cycles"]) > 0 })
}
