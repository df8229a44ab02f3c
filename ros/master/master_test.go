package master

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testTimeout bounds every wait in these tests; it is a deadline for a
// hang, never an assertion on how long something took.
const testTimeout = 30 * time.Second

func startMaster(t *testing.T, opts Options) *Master {
	t.Helper()
	if opts.Logf == nil {
		opts.Logf = t.Logf
	}
	m := New(opts)
	if err := m.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	if !strings.HasPrefix(m.URI(), "http://127.0.0.1:") || !strings.HasSuffix(m.URI(), "/") {
		t.Fatalf("URI %q", m.URI())
	}
	return m
}

// api calls method on the master and returns [code, msg, value].
func api(t *testing.T, m *Master, method string, params ...any) []any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	v, err := Call(ctx, m.URI(), method, params...)
	if err != nil {
		t.Fatalf("%s%v: %v", method, params, err)
	}
	r, ok := v.([]any)
	if !ok || len(r) != 3 {
		t.Fatalf("%s%v returned %#v", method, params, v)
	}
	return r
}

// wantOK calls method and checks for code 1, returning the value.
func wantOK(t *testing.T, m *Master, method string, params ...any) any {
	t.Helper()
	r := api(t, m, method, params...)
	if r[0] != 1 {
		t.Fatalf("%s%v = %#v, want code 1", method, params, r)
	}
	return r[2]
}

// call is one XML-RPC call received by a fakeNode.
type call struct {
	method string
	params []any
}

// fakeNode is a node's slave API that records the calls it receives.
type fakeNode struct {
	srv   *httptest.Server
	calls chan call
	reply []any
}

func newFakeNode(t *testing.T) *fakeNode {
	t.Helper()
	n := &fakeNode{calls: make(chan call, 100), reply: []any{1, "", 0}}
	n.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method, params, err := DecodeCall(r.Body)
		if err != nil {
			t.Errorf("fake node: %v", err)
			return
		}
		n.calls <- call{method, params}
		var b bytes.Buffer
		_ = EncodeResponse(&b, n.reply)
		_, _ = w.Write(b.Bytes())
	}))
	t.Cleanup(n.srv.Close)
	return n
}

func (n *fakeNode) api() string { return n.srv.URL + "/" }

// next waits for the next call.
func (n *fakeNode) next(t *testing.T) call {
	t.Helper()
	select {
	case c := <-n.calls:
		return c
	case <-time.After(testTimeout):
		t.Fatal("fake node: no call received")
		return call{}
	}
}

func TestStartupParams(t *testing.T) {
	m := startMaster(t, Options{})
	if v := wantOK(t, m, "getParam", "/x", "/rosdistro"); v != "noetic\n" {
		t.Errorf("/rosdistro = %q", v)
	}
	id := wantOK(t, m, "getParam", "/x", "/run_id").(string)
	if len(id) != 36 || strings.Count(id, "-") != 4 {
		t.Errorf("/run_id = %q", id)
	}
	if v := wantOK(t, m, "hasParam", "/x", "/rosversion"); v != true {
		t.Errorf("/rosversion missing")
	}
	if v := wantOK(t, m, "getUri", "/x"); v != m.URI() {
		t.Errorf("getUri = %v", v)
	}
	if v, ok := wantOK(t, m, "getPid", "/x").(int); !ok || v <= 0 {
		t.Errorf("getPid = %v", v)
	}
}

func TestTopicRegistrationAndPublisherUpdate(t *testing.T) {
	m := startMaster(t, Options{})
	sub := newFakeNode(t)
	pub := newFakeNode(t)

	// Subscriber first: no publishers yet.
	if v := wantOK(t, m, "registerSubscriber", "/ns/listener", "chatter", "std_msgs/String", sub.api()); !reflect.DeepEqual(v, []any{}) {
		t.Errorf("registerSubscriber = %#v", v)
	}
	// Relative topic resolved in the caller's namespace; the reply lists
	// the subscribers' APIs.
	if v := wantOK(t, m, "registerPublisher", "/ns/talker", "chatter", "std_msgs/String", pub.api()); !reflect.DeepEqual(v, []any{sub.api()}) {
		t.Errorf("registerPublisher = %#v", v)
	}
	c := sub.next(t)
	if c.method != "publisherUpdate" || !reflect.DeepEqual(c.params, []any{"/master", "/ns/chatter", []any{pub.api()}}) {
		t.Errorf("subscriber got %#v", c)
	}
	if v := wantOK(t, m, "registerSubscriber", "/other", "/ns/chatter", "*", sub.api()+"x"); !reflect.DeepEqual(v, []any{pub.api()}) {
		t.Errorf("second registerSubscriber = %#v", v)
	}

	if v := wantOK(t, m, "getPublishedTopics", "/x", ""); !reflect.DeepEqual(v, []any{[]any{"/ns/chatter", "std_msgs/String"}}) {
		t.Errorf("getPublishedTopics = %#v", v)
	}
	if v := wantOK(t, m, "getPublishedTopics", "/x", "/other"); !reflect.DeepEqual(v, []any{}) {
		t.Errorf("getPublishedTopics(/other) = %#v", v)
	}
	if v := wantOK(t, m, "getTopicTypes", "/x"); !reflect.DeepEqual(v, []any{[]any{"/ns/chatter", "std_msgs/String"}}) {
		t.Errorf("getTopicTypes = %#v", v)
	}
	wantState := []any{
		[]any{[]any{"/ns/chatter", []any{"/ns/talker"}}},
		[]any{[]any{"/ns/chatter", []any{"/ns/listener", "/other"}}},
		[]any{},
	}
	if v := wantOK(t, m, "getSystemState", "/x"); !reflect.DeepEqual(v, wantState) {
		t.Errorf("getSystemState = %#v", v)
	}
	if v := wantOK(t, m, "lookupNode", "/x", "/ns/talker"); v != pub.api() {
		t.Errorf("lookupNode = %#v", v)
	}
	if r := api(t, m, "lookupNode", "/x", "/nobody"); r[0] != -1 || r[2] != "" {
		t.Errorf("lookupNode(/nobody) = %#v", r)
	}

	// Unregistering the publisher tells the subscribers.
	if r := api(t, m, "unregisterPublisher", "/ns/talker", "/ns/chatter", pub.api()); !reflect.DeepEqual(r, []any{1, "Unregistered [/ns/talker] as provider of [/ns/chatter]", 1}) {
		t.Errorf("unregisterPublisher = %#v", r)
	}
	c = sub.next(t)
	if c.method != "publisherUpdate" || !reflect.DeepEqual(c.params, []any{"/master", "/ns/chatter", []any{}}) {
		t.Errorf("subscriber got %#v", c)
	}
	if r := api(t, m, "unregisterPublisher", "/ns/talker", "/ns/chatter", pub.api()); r[0] != 1 || r[2] != 0 {
		t.Errorf("second unregisterPublisher = %#v", r)
	}
	if r := api(t, m, "unregisterSubscriber", "/ns/listener", "/ns/chatter", sub.api()); r[0] != 1 || r[2] != 1 {
		t.Errorf("unregisterSubscriber = %#v", r)
	}
	// The talker has nothing registered any more: it is forgotten.
	if r := api(t, m, "lookupNode", "/x", "/ns/talker"); r[0] != -1 {
		t.Errorf("lookupNode after unregister = %#v", r)
	}
	// The topic type stays known, as in rosmaster.
	if v := wantOK(t, m, "getPublishedTopics", "/x", ""); !reflect.DeepEqual(v, []any{}) {
		t.Errorf("getPublishedTopics after unregister = %#v", v)
	}
}

func TestServices(t *testing.T) {
	m := startMaster(t, Options{})
	node := newFakeNode(t)
	if r := api(t, m, "lookupService", "/x", "/srv"); !reflect.DeepEqual(r, []any{-1, "no provider", ""}) {
		t.Errorf("lookupService before = %#v", r)
	}
	if v := wantOK(t, m, "registerService", "/n", "srv", "rosrpc://h:1", node.api()); v != 1 {
		t.Errorf("registerService = %#v", v)
	}
	if v := wantOK(t, m, "lookupService", "/x", "/srv"); v != "rosrpc://h:1" {
		t.Errorf("lookupService = %#v", v)
	}
	state := wantOK(t, m, "getSystemState", "/x").([]any)
	if !reflect.DeepEqual(state[2], []any{[]any{"/srv", []any{"/n"}}}) {
		t.Errorf("services state = %#v", state[2])
	}
	if r := api(t, m, "unregisterService", "/n", "/srv", "rosrpc://h:2"); r[0] != 1 || r[2] != 0 {
		t.Errorf("unregisterService with a stale URI = %#v", r)
	}
	if r := api(t, m, "unregisterService", "/n", "/srv", "rosrpc://h:1"); r[0] != 1 || r[2] != 1 {
		t.Errorf("unregisterService = %#v", r)
	}
	if r := api(t, m, "lookupService", "/x", "/srv"); r[0] != -1 {
		t.Errorf("lookupService after = %#v", r)
	}
}

func TestValidationAndErrors(t *testing.T) {
	m := startMaster(t, Options{})
	for _, tc := range []struct {
		method string
		params []any
		want   []any
	}{
		{"getPid", nil, []any{-1, "missing required caller_id parameter", -1}},
		{"getPid", []any{"/a", "extra"}, []any{-1, "Error: bad call arity", -1}},
		{"getUri", []any{7}, []any{-1, "caller_id must be a string", ""}},
		{"registerPublisher", []any{"/a", "/t", "notatype", "http://h:1/"}, []any{-1, "ERROR: parameter [topic_type] is not a valid package resource name", []any{}}},
		{"registerPublisher", []any{"/a", "/t", "a/b", "ftp://h"}, []any{-1, "ERROR: parameter [caller_api] is not an RPC URI", []any{}}},
		{"registerSubscriber", []any{"/a", "bad name", "a/b", "http://h:1/"}, []any{-1, "ERROR: parameter [topic] contains illegal chars", []any{}}},
		{"registerSubscriber", []any{"/a", "/", "a/b", "http://h:1/"}, []any{-1, "ERROR: parameter [topic] cannot be the global namespace", []any{}}},
		{"getParam", []any{"/a", ""}, []any{-1, "ERROR: parameter [key] must be specified and non-empty", 0}},
		{"getParam", []any{"/a", 3}, []any{-1, "ERROR: parameter [key] must be a string", 0}},
		{"setParam", []any{"/a", "/", 3}, []any{-1, "Error: invalid arguments: cannot set root of parameter tree to non-dictionary", 0}},
		{"deleteParam", []any{"/a", "/"}, []any{-1, "parameter [/] is not set", 0}},
		{"searchParam", []any{"/a", "~p"}, []any{0, "Internal failure: invalid key", 0}},
		{"getPublishedTopics", []any{"/a", 1}, []any{-1, "ERROR: parameter [subgraph] must be a string", 0}},
	} {
		if r := api(t, m, tc.method, tc.params...); !reflect.DeepEqual(r, tc.want) {
			t.Errorf("%s%v = %#v, want %#v", tc.method, tc.params, r, tc.want)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	_, err := Call(ctx, m.URI(), "noSuchMethod", "/a")
	if f, ok := err.(*Fault); !ok || !strings.Contains(f.Message, "not supported") {
		t.Errorf("unknown method: %v", err)
	}

	post := func(body string) (int, string) {
		resp, err := http.Post(m.URI(), "text/xml", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("<methodCall><methodName>getPid"); code != 200 || !strings.Contains(body, "<fault>") {
		t.Errorf("bad XML: %d %s", code, body)
	}
	if code, _ := post(strings.Repeat(" ", MaxBodySize+1)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("huge body: status %d", code)
	}
	resp, err := http.Get(m.URI())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: status %d", resp.StatusCode)
	}
	// Responses always carry Content-Length (roscpp's client needs it).
	var b bytes.Buffer
	_ = EncodeCall(&b, "getParamNames", "/a")
	resp, err = http.Post(m.URI(), "text/xml", &b)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ContentLength <= 0 || resp.Header.Get("Content-Type") != "text/xml" {
		t.Errorf("headers %v, length %d", resp.Header, resp.ContentLength)
	}
}

func TestParamTree(t *testing.T) {
	m := startMaster(t, Options{})
	dict := map[string]any{"a": 1, "b": []any{1, 2}, "c": map[string]any{"d": "hello"}}
	if r := api(t, m, "setParam", "/x", "/foo", dict); !reflect.DeepEqual(r, []any{1, "parameter /foo set", 0}) {
		t.Errorf("setParam = %#v", r)
	}
	if v := wantOK(t, m, "getParam", "/x", "/foo"); !reflect.DeepEqual(v, dict) {
		t.Errorf("getParam(/foo) = %#v", v)
	}
	if r := api(t, m, "getParam", "/x", "/foo/c/d"); !reflect.DeepEqual(r, []any{1, "Parameter [/foo/c/d]", "hello"}) {
		t.Errorf("getParam(/foo/c/d) = %#v", r)
	}
	if r := api(t, m, "getParam", "/x", "/foo/a/z"); !reflect.DeepEqual(r, []any{-1, "Parameter [/foo/a/z] is not set", 0}) {
		t.Errorf("getParam through a leaf = %#v", r)
	}
	// Setting below a leaf turns it into a namespace; setting a dict
	// replaces the whole subtree.
	wantOK(t, m, "setParam", "/x", "/foo/a/z", true)
	wantOK(t, m, "setParam", "/x", "/foo/c", map[string]any{"e": 2.5})
	want := map[string]any{"a": map[string]any{"z": true}, "b": []any{1, 2}, "c": map[string]any{"e": 2.5}}
	if v := wantOK(t, m, "getParam", "/x", "/foo/"); !reflect.DeepEqual(v, want) {
		t.Errorf("getParam(/foo/) = %#v", v)
	}
	// Relative and private names.
	wantOK(t, m, "setParam", "/ns/node", "rel", "r")
	wantOK(t, m, "setParam", "/ns/node", "~priv", "p")
	if v := wantOK(t, m, "getParam", "/x", "/ns"); !reflect.DeepEqual(v, map[string]any{"rel": "r", "node": map[string]any{"priv": "p"}}) {
		t.Errorf("getParam(/ns) = %#v", v)
	}
	if r := api(t, m, "hasParam", "/ns/node", "~priv"); !reflect.DeepEqual(r, []any{1, "/ns/node/priv", true}) {
		t.Errorf("hasParam(~priv) = %#v", r)
	}
	if r := api(t, m, "hasParam", "/x", "/nope"); !reflect.DeepEqual(r, []any{1, "/nope", false}) {
		t.Errorf("hasParam(/nope) = %#v", r)
	}
	// searchParam looks in the caller's private namespace, then upwards.
	wantOK(t, m, "setParam", "/x", "/a/b/shared", 1)
	wantOK(t, m, "setParam", "/x", "/top", map[string]any{"k": 1})
	for _, tc := range []struct{ caller, key, want string }{
		{"/a/b/c/node", "shared", "/a/b/shared"},
		{"/a/b/c/node", "top/k", "/top/k"},
		{"/a/b", "shared", "/a/b/shared"},
		{"/x", "/top", "/top"},
	} {
		if v := wantOK(t, m, "searchParam", tc.caller, tc.key); v != tc.want {
			t.Errorf("searchParam(%s, %s) = %v, want %s", tc.caller, tc.key, v, tc.want)
		}
	}
	if r := api(t, m, "searchParam", "/a/node", "missing"); r[0] != -1 || r[2] != "" {
		t.Errorf("searchParam(missing) = %#v", r)
	}
	names := wantOK(t, m, "getParamNames", "/x").([]any)
	for _, n := range []string{"/foo/a/z", "/foo/b", "/foo/c/e", "/ns/rel", "/ns/node/priv", "/run_id", "/rosdistro"} {
		if !containsValue(names, n) {
			t.Errorf("getParamNames lacks %s: %v", n, names)
		}
	}
	if containsValue(names, "/foo") || containsValue(names, "/foo/c") {
		t.Errorf("getParamNames lists namespaces: %v", names)
	}
	if r := api(t, m, "deleteParam", "/x", "/foo/c"); !reflect.DeepEqual(r, []any{1, "parameter /foo/c deleted", 0}) {
		t.Errorf("deleteParam = %#v", r)
	}
	if r := api(t, m, "deleteParam", "/x", "/foo/c"); r[0] != -1 {
		t.Errorf("second deleteParam = %#v", r)
	}
	// Setting the root replaces everything.
	wantOK(t, m, "setParam", "/x", "/", map[string]any{"only": 1})
	if v := wantOK(t, m, "getParam", "/x", "/"); !reflect.DeepEqual(v, map[string]any{"only": 1}) {
		t.Errorf("root = %#v", v)
	}
}

func TestInProcessSetParam(t *testing.T) {
	m := startMaster(t, Options{})
	type joint struct{}
	src := map[string][]float64{"pos": {1, 2}}
	if err := m.SetParam("robot_description", "<robot name=\"r\"/>\n"); err != nil {
		t.Fatal(err)
	}
	if err := m.SetParam("/cfg", src); err != nil {
		t.Fatal(err)
	}
	src["pos"][0] = 99 // the master holds a copy
	if v := wantOK(t, m, "getParam", "/x", "/robot_description"); v != "<robot name=\"r\"/>\n" {
		t.Errorf("robot_description = %q", v)
	}
	if v, ok := m.GetParam("/cfg"); !ok || !reflect.DeepEqual(v, map[string]any{"pos": []any{1.0, 2.0}}) {
		t.Errorf("GetParam(/cfg) = %#v %v", v, ok)
	}
	if err := m.SetParam("/bad", joint{}); err == nil {
		t.Error("SetParam accepted a struct")
	}
	if err := m.SetParam("/", 1); err == nil {
		t.Error("SetParam set the root to a scalar")
	}
	if _, ok := m.GetParam("/nope"); ok {
		t.Error("GetParam(/nope) found something")
	}
}

func TestParamSubscriptions(t *testing.T) {
	m := startMaster(t, Options{})
	node := newFakeNode(t)
	wantOK(t, m, "setParam", "/x", "/cfg/gain", 1.5)
	if v := wantOK(t, m, "subscribeParam", "/sub", node.api(), "/cfg"); !reflect.DeepEqual(v, map[string]any{"gain": 1.5}) {
		t.Errorf("subscribeParam = %#v", v)
	}
	if v := wantOK(t, m, "subscribeParam", "/sub", node.api(), "/cfg/other/leaf"); !reflect.DeepEqual(v, map[string]any{}) {
		t.Errorf("subscribeParam(unset) = %#v", v)
	}
	// A child of the subscribed key changes: the subscriber hears the child.
	wantOK(t, m, "setParam", "/x", "/cfg/gain", 2.0)
	if c := node.next(t); c.method != "paramUpdate" || !reflect.DeepEqual(c.params, []any{"/master", "/cfg/gain/", 2.0}) {
		t.Errorf("got %#v", c)
	}
	// The subscriber's own change is not echoed back to it.
	wantOK(t, m, "setParam", "/sub", "/cfg/gain", 3.0)
	// A parent set to a dict: both subscriptions hear about it, the one
	// below the dict with its own value ({} when absent).
	wantOK(t, m, "setParam", "/x", "/cfg", map[string]any{"other": map[string]any{"leaf": "v"}})
	got := map[string]any{}
	for i := 0; i < 2; i++ {
		c := node.next(t)
		if c.method != "paramUpdate" {
			t.Fatalf("got %#v", c)
		}
		got[c.params[1].(string)] = c.params[2]
	}
	want := map[string]any{
		"/cfg/":            map[string]any{"other": map[string]any{"leaf": "v"}},
		"/cfg/other/leaf/": "v",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("updates %#v, want %#v", got, want)
	}
	// Deleting tells subscribers with an empty dict.
	// (Both subscriptions get the same update for the same node, which the
	// master may coalesce into one call.)
	wantOK(t, m, "deleteParam", "/x", "/cfg/other/leaf")
	if c := node.next(t); c.method != "paramUpdate" || !reflect.DeepEqual(c.params, []any{"/master", "/cfg/other/leaf/", map[string]any{}}) {
		t.Errorf("delete update %#v", c)
	}
	if r := api(t, m, "unsubscribeParam", "/sub", node.api(), "/cfg"); r[0] != 1 || r[2] != 1 {
		t.Errorf("unsubscribeParam = %#v", r)
	}
	if r := api(t, m, "unsubscribeParam", "/sub", node.api(), "/cfg/other/leaf"); r[0] != 1 {
		t.Errorf("unsubscribeParam = %#v", r)
	}
	// In-process sets notify too.
	wantOK(t, m, "subscribeParam", "/sub", node.api(), "/robot_description")
	if err := m.SetParam("/robot_description", "<robot/>"); err != nil {
		t.Fatal(err)
	}
	for {
		c := node.next(t)
		if reflect.DeepEqual(c.params[1], "/cfg/other/leaf/") {
			continue // the uncoalesced second delete update
		}
		if !reflect.DeepEqual(c.params, []any{"/master", "/robot_description/", "<robot/>"}) {
			t.Errorf("got %#v", c)
		}
		break
	}
}
