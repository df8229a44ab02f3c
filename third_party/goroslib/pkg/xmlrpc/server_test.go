package xmlrpc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

type echoReq struct{ Text string }

type echoRes struct {
	Code int
	Msg  string
	Text string
}

// startServer serves requests that carry one string and answers it back.
func startServer(t *testing.T, limits Limits) *Server {
	t.Helper()
	s, err := NewServerLimits("127.0.0.1:0", 5*time.Second, limits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	go s.Serve(func(raw *RequestRaw) interface{} {
		var req echoReq
		if err := raw.Decode(&req); err != nil {
			return ErrorRes{}
		}
		return echoRes{1, "ok", req.Text}
	})
	return s
}

func post(t *testing.T, s *Server, text string) (*http.Response, error) {
	t.Helper()
	var buf bytes.Buffer
	if err := requestEncode(&buf, "echo", echoReq{Text: text}); err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Timeout: 30 * time.Second}
	return c.Post(s.URL(net.IPv4(127, 0, 0, 1), "")+"/RPC2", "text/xml", &buf)
}

func TestServerBodyLimit(t *testing.T) {
	s := startServer(t, Limits{MaxBodyBytes: 4096})

	res, err := post(t, s, strings.Repeat("a", 100))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte(strings.Repeat("a", 100))) {
		t.Fatalf("a small request: status %d, body %q", res.StatusCode, body)
	}

	res, err = post(t, s, strings.Repeat("a", 1<<20))
	if err != nil {
		// the server may close the connection before the client has
		// written the whole body: that is a refusal too
		return
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 1 MiB request with a 4 KiB limit: status %d, want 413", res.StatusCode)
	}
}

func TestServerDefaultLimits(t *testing.T) {
	s, err := NewServer("127.0.0.1:0", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := s.hs
	if hs.ReadHeaderTimeout != DefaultLimits.ReadHeaderTimeout || hs.ReadTimeout != DefaultLimits.ReadTimeout ||
		hs.IdleTimeout != DefaultLimits.IdleTimeout || hs.MaxHeaderBytes != DefaultLimits.MaxHeaderBytes ||
		s.maxBody != DefaultLimits.MaxBodyBytes {
		t.Fatalf("NewServer's limits %+v, body %d; want %+v", hs, s.maxBody, DefaultLimits)
	}
	if s.limited == nil {
		t.Fatalf("NewServer's listener is %T, not connection-limited", s.ln)
	}
	for name, v := range map[string]int64{"body": DefaultLimits.MaxBodyBytes, "header": int64(DefaultLimits.MaxHeaderBytes),
		"conns": int64(DefaultLimits.MaxConns), "conns per address": int64(DefaultLimits.MaxConnsPerAddr), "header timeout": int64(DefaultLimits.ReadHeaderTimeout),
		"read timeout": int64(DefaultLimits.ReadTimeout), "idle timeout": int64(DefaultLimits.IdleTimeout)} {
		if v <= 0 {
			t.Errorf("default %s limit is %d: unbounded", name, v)
		}
	}
}

// A client that starts a request and never finishes it is cut off.
func TestServerHeaderTimeout(t *testing.T) {
	s := startServer(t, Limits{ReadHeaderTimeout: 50 * time.Millisecond, ReadTimeout: 50 * time.Millisecond})
	c, err := net.Dial("tcp", s.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("POST /RPC2 HTTP/1.1\r\nHost: x\r\n")); err != nil {
		t.Fatal(err)
	}
	// The server must close the connection; the deadline only keeps a
	// broken server from hanging the test.
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err = io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept a half-sent request open")
	}
}

// A new connection past MaxConns takes the place of the half-open one
// that has waited longest (a slowloris, from another address too): it is
// served, the oldest idle one closed (frcd issue 37; before, it waited in
// the backlog until one closed).
func TestServerEvictsHalfOpen(t *testing.T) {
	s := startServer(t, Limits{MaxConns: 2, MaxConnsPerAddr: 2})
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	var idle []net.Conn
	for i := 0; i < 2; i++ {
		c, err := d.Dial("tcp", s.ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte("POST /RPC2 HTTP/1.1\r\n")); err != nil { // never finished
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	third, err := d.Dial("tcp", s.ln.Addr().String()) // the same address, past its share
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	var buf bytes.Buffer
	if err := requestEncode(&buf, "echo", echoReq{Text: "third"}); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://x/RPC2", &buf)
	if err := req.Write(third); err != nil {
		t.Fatal(err)
	}
	third.SetReadDeadline(time.Now().Add(20 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(third), req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("third")) {
		t.Fatalf("status %d, body %q", res.StatusCode, body)
	}
	idle[0].SetReadDeadline(time.Now().Add(20 * time.Second))
	var ne net.Error
	if _, err := idle[0].Read(make([]byte, 1)); err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the oldest half-open connection: %v, want closed (EOF or reset)", err)
	}
	if s.limited.Evicted() == 0 {
		t.Error("nothing counted as evicted")
	}
}
