package master

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/frcd/frcd/internal/bounds"
)

// deepTree is a chain of n namespaces /a/a/.../a holding one leaf.
func deepTree(n int) map[string]any {
	root := map[string]any{}
	d := root
	for i := 0; i < n; i++ {
		next := map[string]any{}
		d["a"] = next
		d = next
	}
	d["leaf"] = 1
	return root
}

// TestParamNamesLinear: listing the names of a deep tree is linear in its
// size (it once built every prefix: 32k levels took a gigabyte).
func TestParamNamesLinear(t *testing.T) {
	trees := map[int]map[string]any{3000: deepTree(3000), 20000: deepTree(20000), 80000: deepTree(80000)}
	names := paramNames(trees[3000])
	if want := strings.Repeat("/a", 3000) + "/leaf"; len(names) != 1 || names[0] != want {
		t.Fatalf("names of a deep tree: %d names, first %.40q", len(names), names[0])
	}
	bounds.Linear(t, 20000, func(n int) { paramNames(trees[n]) })
}

// TestSearchParamLinear: searchParam from a deep caller's namespace is
// linear in its depth (it was cubic and held the master's lock 37 s).
func TestSearchParamLinear(t *testing.T) {
	root := map[string]any{"x": 1, "a": map[string]any{"a": map[string]any{"x": 2}}}
	ns := map[int]string{}
	for _, n := range []int{3000, 50000, 200000} {
		ns[n] = strings.Repeat("/a", n)
	}
	for _, c := range []struct{ ns, key, want string }{
		{"/a/a/a/node", "x", "/a/a/x"},
		{"/a/node", "x", "/x"},
		{"/a/a/a/node", "x/y", "/a/a/x/y"},
		{"/b/node", "x", "/x"},
		{"/a/a/node", "x", "/a/a/x"},
		{"/node", "y", ""},
		{ns[3000], "x", "/a/a/x"},
	} {
		if got, err := paramSearch(root, c.ns, c.key); err != nil || got != c.want {
			t.Errorf("search %q from %.20q: %q, %v; want %q", c.key, c.ns, got, err, c.want)
		}
	}
	deep := deepTree(200000) // the walk goes all the way down
	deep["y"] = 1
	bounds.Linear(t, 50000, func(n int) {
		if got, _ := paramSearch(deep, ns[n]+"/node", "y"); got != "/y" {
			t.Fatalf("search from a deep namespace: %q", got)
		}
	})
}

// TestParamLimits: a name deeper than MaxNameDepth and a set past
// MaxParamBytes are refused with an error naming the limit; deleting makes
// room again, and the count always matches the tree.
func TestParamLimits(t *testing.T) {
	m := startMaster(t, Options{})
	deep := strings.Repeat("/a", MaxNameDepth+1)
	r := api(t, m, "setParam", "/t", deep, 1)
	if r[0] != -1 || !strings.Contains(fmt.Sprint(r[1]), "129 namespaces deep, over the limit of 128") {
		t.Errorf("setParam of a name %d deep: %v", MaxNameDepth+1, r)
	}
	wantOK(t, m, "setParam", "/t", strings.Repeat("/a", MaxNameDepth), 1)

	big := strings.Repeat("x", 3<<20)
	n := 0
	for ; n < 40; n++ {
		if err := m.SetParam(fmt.Sprintf("/big/%d", n), big); err != nil {
			if !strings.Contains(err.Error(), "over its limit of 8 MiB") {
				t.Errorf("set %d: %v", n, err)
			}
			break
		}
	}
	if n != MaxParamBytes/(3<<20) {
		t.Errorf("%d parameters of 3 MiB stored, want %d", n, MaxParamBytes/(3<<20))
	}
	wantOK(t, m, "deleteParam", "/t", "/big/0")
	if err := m.SetParam("/big/again", big); err != nil {
		t.Errorf("after a delete: %v", err)
	}
	m.mu.Lock()
	got, want := m.paramBytes, paramBytes(m.params)
	m.mu.Unlock()
	if got != want {
		t.Errorf("paramBytes %d, the tree holds %d", got, want)
	}
}

// TestParamBytesCount: random sets and deletes keep the running count
// equal to a recount of the tree.
func TestParamBytesCount(t *testing.T) {
	m := New(Options{})
	rng := rand.New(rand.NewSource(1))
	keys := []string{"/", "/a", "/a/b", "/a/b/c", "/a/d", "/e", "/e/f/g"}
	values := []any{1, "text", []any{1, "two"}, map[string]any{"b": 1, "x": map[string]any{"y": "z"}}, map[string]any{}}
	for i := 0; i < 2000; i++ {
		key := keys[rng.Intn(len(keys))]
		if rng.Intn(3) == 0 {
			_ = m.deleteParamForTest(key)
		} else {
			v := copyTree(values[rng.Intn(len(values))])
			if key == "/" {
				v = map[string]any{"a": copyTree(values[rng.Intn(len(values))])}
			}
			m.mu.Lock()
			if err := m.setParamLocked(key, v, "", false); err != nil {
				t.Fatal(err)
			}
			m.mu.Unlock()
		}
		if m.paramBytes != paramBytes(m.params) {
			t.Fatalf("step %d (%s): paramBytes %d, the tree holds %d", i, key, m.paramBytes, paramBytes(m.params))
		}
	}
}

func (m *Master) deleteParamForTest(key string) error {
	_, _, _, err := m.deleteParam("", "/t", []any{key})
	return err
}

// TestRepliesAreXML: a fault echoing invalid bytes of a request, and a
// parameter holding control characters, still give well-formed UTF-8 XML.
func TestRepliesAreXML(t *testing.T) {
	m := startMaster(t, Options{})
	if err := m.SetParam("/ctl", "a\x00b\x1bc\xffd\tok"); err != nil {
		t.Fatal(err)
	}
	post := func(body string) []byte {
		resp, err := http.Post(m.URI(), "text/xml", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, body := range []string{
		"<?xml version=\"1.0\"?><methodCall><methodName>getParam\xff\xfe</methodName><params><param><value><bogus>\xff</bogus></value></param></params></methodCall>",
		"<methodCall><methodName>x\xc3</methodName>",
		"<methodCall><methodName>getParam</methodName><params><param><value>/t</value></param><param><value>/ctl</value></param></params></methodCall>",
	} {
		out := post(body)
		if !utf8.Valid(out) {
			t.Errorf("reply to %.40q is not UTF-8: %q", body, out)
		}
		dec := xml.NewDecoder(bytes.NewReader(out))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("reply to %.40q is not XML: %v\n%q", body, err, out)
				break
			}
		}
	}
	var b bytes.Buffer
	escape(&b, "<\xff\x01\t\u00e9\U0001F600\uFFFE>&")
	if want := "&lt;\uFFFD\uFFFD\t\u00e9\U0001F600\uFFFD&gt;&amp;"; b.String() != want {
		t.Errorf("escape: %q, want %q", b.String(), want)
	}
}
