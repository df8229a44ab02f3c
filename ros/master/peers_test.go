package master

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// from dials the master from a loopback address of its own (127.0.0.x).
func from(ip string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: testTimeout}
}

// pidFrom calls getPid from ip.
func pidFrom(m *Master, ip string) error {
	c := &Client{HTTP: &http.Client{Transport: &http.Transport{DialContext: from(ip).DialContext}}}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	v, err := c.Call(ctx, m.URI(), "getPid", "/probe")
	if err != nil {
		return err
	}
	if r, ok := v.([]any); !ok || len(r) != 3 || r[0] != 1 {
		return fmt.Errorf("getPid: %v", v)
	}
	return nil
}

// TestPeerLimits: one remote address holds at most MaxConnsPerAddr
// connections and MaxBodiesPerAddr request bodies being read; past them
// its oldest idle connection is closed for the new one and its requests
// answered 503 (counted),
// while other addresses are served, and the address is served again once
// it lets go.
func TestPeerLimits(t *testing.T) {
	m := New(Options{Logf: t.Logf})
	counts := make(chan [2]any, 4*MaxBodiesPerAddr)
	m.onBody = func(host string, n int) { counts <- [2]any{host, n} }
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	addr := strings.TrimSuffix(strings.TrimPrefix(m.URI(), "http://"), "/")
	waitBodies := func(host string, want int) {
		t.Helper()
		deadline := time.After(testTimeout)
		for {
			select {
			case c := <-counts:
				if c[0] == host && c[1] == want {
					return
				}
			case <-deadline:
				t.Fatalf("%s never held %d bodies", host, want)
			}
		}
	}
	if err := pidFrom(m, "127.0.0.9"); err != nil {
		t.Fatalf("before: %v", err)
	}
	waitBodies("127.0.0.9", 0)

	// Connections: 127.0.0.2 fills its share with idle connections.
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := 0; i < MaxConnsPerAddr; i++ {
		c, err := from("127.0.0.2").Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	// One more from it takes the place of the one that has waited
	// longest: it is served, that one closed (counted).
	if err := pidFrom(m, "127.0.0.2"); err != nil {
		t.Errorf("connection %d from 127.0.0.2: %v; want served", MaxConnsPerAddr+1, err)
	}
	held[0].SetDeadline(time.Now().Add(testTimeout))
	if n, err := held[0].Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the oldest idle connection of 127.0.0.2: read %d, %v; want it closed", n, err)
	}
	if m.PeerEvicted() != 1 || m.PeerRefused() != 0 {
		t.Errorf("PeerEvicted %d, PeerRefused %d after a connection over the share; want 1, 0", m.PeerEvicted(), m.PeerRefused())
	}
	if err := pidFrom(m, "127.0.0.3"); err != nil {
		t.Errorf("127.0.0.3 not served while 127.0.0.2 holds its share: %v", err)
	}
	waitBodies("127.0.0.3", 0)

	// Bodies: 127.0.0.4 sends MaxBodiesPerAddr requests of 4 MiB slowly
	// (the headers and one byte of each).
	for i := 0; i < MaxBodiesPerAddr; i++ {
		c, err := from("127.0.0.4").Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n<", MaxBodySize)
		waitBodies("127.0.0.4", i+1)
	}
	refused := m.PeerRefused()
	c, err := from("127.0.0.4").Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(testTimeout))
	body := `<?xml version="1.0"?><methodCall><methodName>getPid</methodName><params><param><value>/x</value></param></params></methodCall>`
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("request %d from 127.0.0.4 while its bodies are read: %v, %v; want 503", MaxBodiesPerAddr+1, resp, err)
	}
	c.Close()
	if m.PeerRefused() != refused+1 {
		t.Errorf("PeerRefused %d, want %d", m.PeerRefused(), refused+1)
	}
	if err := pidFrom(m, "127.0.0.5"); err != nil {
		t.Errorf("127.0.0.5 not served while 127.0.0.4 sends slowly: %v", err)
	}
	waitBodies("127.0.0.5", 0)

	// 127.0.0.4 lets go: served again.
	for _, c := range held[MaxConnsPerAddr:] {
		c.Close()
	}
	waitBodies("127.0.0.4", 0)
	if err := pidFrom(m, "127.0.0.4"); err != nil {
		t.Errorf("127.0.0.4 not served after it closed its slow requests: %v", err)
	}
}
