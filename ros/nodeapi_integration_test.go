package ros_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros/master"
)

// TestNodeAPILimits: frcd's own node API (the XML-RPC server masters and
// other nodes call) refuses a body over its limit without reading it
// whole, cuts off requests that never finish, and keeps answering the
// real ROS tools throughout.
func TestNodeAPILimits(t *testing.T) {
	integration(t, tooltest.Rosmaster, tooltest.Rosnode)
	port := freePort(t)
	e := tooltest.NewROS(t, fmt.Sprintf("http://127.0.0.1:%d", port))
	e.Start(t, "rosmaster", "--core", "-p", strconv.Itoa(port))
	d := namedDaemon(t, e, "", ros.MasterExternal)
	runDaemon(t, d)

	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	defer cancel()
	res, err := master.Call(ctx, e.MasterURI, "lookupNode", "/test", "/frcd")
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	if r, ok := res.([]any); ok && len(r) == 3 {
		uri, _ = r[2].(string)
	}
	u, err := url.Parse(uri)
	if err != nil || u.Host == "" {
		t.Fatalf("lookupNode /frcd: %v %v", res, err)
	}

	// 64 MiB of a string parameter: refused once the limit is read.
	body := io.MultiReader(strings.NewReader(`<?xml version="1.0"?><methodCall><methodName>publisherUpdate</methodName><params><param><value>`),
		io.LimitReader(repeatReader('a'), 64<<20), strings.NewReader(`</value></param></params></methodCall>`))
	sent := &countingReader{r: body}
	hres, err := (&http.Client{Timeout: tooltest.Timeout}).Post(uri, "text/xml", sent)
	switch {
	case err == nil:
		hres.Body.Close()
		if hres.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("a 64 MiB request: status %d, want 413", hres.StatusCode)
		}
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		t.Fatalf("a 64 MiB request was still being read after %v: %v", tooltest.Timeout, err)
	}
	// Either answered or cut off: in both cases not read whole.
	if n := sent.count(); n >= 64<<20 {
		t.Errorf("the node read all %d bytes of an oversized request", n)
	}

	// Requests that never finish are closed by the server.
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", u.Host)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			if _, err := c.Write([]byte("POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n<?xml")); err != nil {
				errs <- err
				return
			}
			_ = c.SetReadDeadline(time.Now().Add(tooltest.Timeout))
			_, err = io.Copy(io.Discard, c)
			if isTimeout(err) {
				errs <- errors.New("a half-sent request was kept open")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// The node still answers the ROS tools.
	if out := e.MustRun(t, "rosnode", "ping", "-c", "1", "/frcd"); !strings.Contains(out, "reply from "+uri) {
		t.Errorf("rosnode ping after the abuse:\n%s", out)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

type countingReader struct {
	mu sync.Mutex
	r  io.Reader
	n  int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.mu.Lock()
	c.n += int64(n)
	c.mu.Unlock()
	return n, err
}

func (c *countingReader) count() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
