package master

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"testing"
)

// BenchmarkMulticallFlood: one system.multicall of 1000 registerPublisher
// calls, each refused at the master's registration limit, as `make
// attack`'s registration flood sends 241 of them: its CPU and allocations
// are what the flood takes from the robot's loop. Decoding the request is
// most of it (encoding/xml).
func BenchmarkMulticallFlood(b *testing.B) {
	m := New(Options{})
	defer m.Close()
	body := func(c int) []byte {
		calls := make([]any, 1000)
		for i := range calls {
			n := c*1000 + i
			calls[i] = map[string]any{"methodName": "registerPublisher", "params": []any{fmt.Sprintf("/flood%d", n), fmt.Sprintf("/flood/t%d", n), "std_msgs/String", fmt.Sprintf("http://127.0.0.1:1/%d", n)}}
		}
		var buf bytes.Buffer
		if err := EncodeCall(&buf, "system.multicall", any(calls)); err != nil {
			b.Fatal(err)
		}
		return buf.Bytes()
	}
	for c := range MaxRegistrations/1000 + 1 { // to the limit
		m.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/", bytes.NewReader(body(c))))
	}
	if n := m.Refused(); n == 0 {
		b.Fatalf("nothing refused filling the master")
	}
	flood := body(100)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w := httptest.NewRecorder()
		m.ServeHTTP(w, httptest.NewRequest("POST", "/", bytes.NewReader(flood)))
		if w.Code != 200 {
			b.Fatalf("answered %d", w.Code)
		}
	}
}
