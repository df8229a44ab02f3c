package master

import (
	"fmt"
	"sort"
	"strings"
)

// apiMethod is one Master or Parameter Server API call: nargs arguments
// after caller_id, errVal is the value returned with an error code.
type apiMethod struct {
	nargs  int
	errVal any
	fn     func(m *Master, from, callerID string, args []any) (code int, msg string, val any, err error)
}

// invalidParam is a validation failure, reported with code -1.
type invalidParam string

func (e invalidParam) Error() string { return string(e) }

// apiMethods is the XML-RPC dispatch table, with rosmaster's arities and
// error values.
var apiMethods = map[string]apiMethod{
	"getPid":               {0, -1, (*Master).getPid},
	"getUri":               {0, "", (*Master).getURI},
	"registerService":      {3, 0, (*Master).registerService},
	"unregisterService":    {2, 0, (*Master).unregisterService},
	"lookupService":        {1, "", (*Master).lookupService},
	"registerSubscriber":   {3, []any{}, (*Master).registerSubscriber},
	"unregisterSubscriber": {2, 0, (*Master).unregisterSubscriber},
	"registerPublisher":    {3, []any{}, (*Master).registerPublisher},
	"unregisterPublisher":  {2, 0, (*Master).unregisterPublisher},
	"lookupNode":           {1, "", (*Master).lookupNode},
	"getPublishedTopics":   {1, 0, (*Master).getPublishedTopics},
	"getTopicTypes":        {0, []any{}, (*Master).getTopicTypes},
	"getSystemState":       {0, []any{[]any{}, []any{}, []any{}}, (*Master).getSystemState},
	"deleteParam":          {1, 0, (*Master).deleteParam},
	"setParam":             {2, 0, (*Master).setParam},
	"getParam":             {1, 0, (*Master).getParam},
	"searchParam":          {1, 0, (*Master).searchParam},
	"subscribeParam":       {2, 0, (*Master).subscribeParam},
	"unsubscribeParam":     {2, 0, (*Master).unsubscribeParam},
	"hasParam":             {1, false, (*Master).hasParam},
	"getParamNames":        {0, []any{}, (*Master).getParamNames},
}

// ---- validators (rosmaster's validators.py) ----

// truthy is Python's truth value of a decoded XML-RPC value.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case int:
		return v != 0
	case float64:
		return v != 0
	case string:
		return v != ""
	case []byte:
		return len(v) != 0
	case []any:
		return len(v) != 0
	case map[string]any:
		return len(v) != 0
	}
	return true
}

func nonEmptyStr(name string, v any) (string, error) {
	if !truthy(v) {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] must be specified and non-empty", name))
	}
	s, ok := v.(string)
	if !ok {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] must be a string", name))
	}
	return s, nil
}

func isAPI(name string, v any) (string, error) {
	s, ok := v.(string)
	if !ok || s == "" {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] is not an XMLRPC URI", name))
	}
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "rosrpc://") {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] is not an RPC URI", name))
	}
	return s, nil
}

func validName(name string, v any, callerID string) (string, error) {
	s, ok := v.(string)
	if !ok || s == "" {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] must be a non-empty string", name))
	}
	if strings.ContainsAny(s, ": ") {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] contains illegal chars", name))
	}
	return resolveName(s, callerID), nil
}

// isTopic validates a topic or service name and resolves it.
func isTopic(name string, v any, callerID string) (string, error) {
	r, err := validName(name, v, callerID)
	if err != nil {
		return "", err
	}
	if v == sep {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] cannot be the global namespace", name))
	}
	return r, nil
}

func validTypeName(name string, v any) (string, error) {
	if v == "*" {
		return "*", nil
	}
	s, ok := v.(string)
	if !ok || s == "" {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] must be a non-empty string", name))
	}
	if len(strings.Split(s, "/")) != 2 {
		return "", invalidParam(fmt.Sprintf("ERROR: parameter [%s] is not a valid package resource name", name))
	}
	return s, nil
}

// ---- Master API ----

func (m *Master) getPid(string, string, []any) (int, string, any, error) {
	return 1, "", m.pid, nil
}

func (m *Master) getURI(string, string, []any) (int, string, any, error) {
	return 1, "", m.URI(), nil
}

func (m *Master) registerService(from, callerID string, args []any) (int, string, any, error) {
	service, err := isTopic("service", args[0], callerID)
	if err != nil {
		return 0, "", nil, err
	}
	serviceAPI, err := isAPI("service_api", args[1])
	if err != nil {
		return 0, "", nil, err
	}
	callerAPI, err := isAPI("caller_api", args[2])
	if err != nil {
		return 0, "", nil, err
	}
	if err := m.guardName(callerID, callerAPI); err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.admitLocked(kindServices, service, callerID, callerAPI, serviceAPI, "", from); err != nil {
		return 0, "", nil, err
	}
	m.handleBumped(m.reg.register(kindServices, service, callerID, callerAPI, serviceAPI, from), callerID)
	m.logf("ros master: +SERVICE [%s] %s %s", service, callerID, callerAPI)
	return 1, fmt.Sprintf("Registered [%s] as provider of [%s]", callerID, service), 1, nil
}

func (m *Master) unregisterService(from, callerID string, args []any) (int, string, any, error) {
	service, err := isTopic("service", args[0], callerID)
	if err != nil {
		return 0, "", nil, err
	}
	serviceAPI, err := isAPI("service_api", args[1])
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	code, msg, val := m.reg.unregister(kindServices, service, callerID, "", serviceAPI)
	m.logf("ros master: -SERVICE [%s] %s %s", service, callerID, serviceAPI)
	return code, msg, val, nil
}

func (m *Master) lookupService(from, callerID string, args []any) (int, string, any, error) {
	service, err := isTopic("service", args[0], callerID)
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.reg.services.serviceAPI[service]; ok {
		return 1, fmt.Sprintf("rosrpc URI: [%s]", p.api), p.api, nil
	}
	return -1, "no provider", "", nil
}

func (m *Master) topicArgs(callerID string, args []any) (topic, topicType, callerAPI string, err error) {
	if topic, err = isTopic("topic", args[0], callerID); err != nil {
		return
	}
	if topicType, err = validTypeName("topic_type", args[1]); err != nil {
		return
	}
	callerAPI, err = isAPI("caller_api", args[2])
	return
}

func (m *Master) registerSubscriber(from, callerID string, args []any) (int, string, any, error) {
	topic, topicType, callerAPI, err := m.topicArgs(callerID, args)
	if err != nil {
		return 0, "", nil, err
	}
	if err := m.guardName(callerID, callerAPI); err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	typ := ""
	if _, ok := m.topicTypes[topic]; !ok && topicType != "*" {
		typ = topicType
	}
	if err := m.admitLocked(kindSubscriptions, topic, callerID, callerAPI, "", typ, from); err != nil {
		return 0, "", nil, err
	}
	m.handleBumped(m.reg.register(kindSubscriptions, topic, callerID, callerAPI, "", from), callerID)
	if typ != "" {
		m.setTypeLocked(topic, typ)
	}
	m.logf("ros master: +SUB [%s] %s %s", topic, callerID, callerAPI)
	return 1, fmt.Sprintf("Subscribed to [%s]", topic), m.reg.pubs.apis(topic), nil
}

func (m *Master) unregisterSubscriber(from, callerID string, args []any) (int, string, any, error) {
	topic, err := isTopic("topic", args[0], callerID)
	if err != nil {
		return 0, "", nil, err
	}
	callerAPI, err := isAPI("caller_api", args[1])
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	code, msg, val := m.reg.unregister(kindSubscriptions, topic, callerID, callerAPI, "")
	m.logf("ros master: -SUB [%s] %s %s", topic, callerID, callerAPI)
	return code, msg, val, nil
}

func (m *Master) registerPublisher(from, callerID string, args []any) (int, string, any, error) {
	topic, topicType, callerAPI, err := m.topicArgs(callerID, args)
	if err != nil {
		return 0, "", nil, err
	}
	if err := m.guardName(callerID, callerAPI); err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	typ := ""
	if _, ok := m.topicTypes[topic]; !ok || topicType != "*" {
		typ = topicType
	}
	if err := m.admitLocked(kindPublications, topic, callerID, callerAPI, "", typ, from); err != nil {
		return 0, "", nil, err
	}
	m.handleBumped(m.reg.register(kindPublications, topic, callerID, callerAPI, "", from), callerID)
	if typ != "" {
		m.setTypeLocked(topic, typ)
	}
	m.notifyTopic(topic)
	m.logf("ros master: +PUB [%s] %s %s", topic, callerID, callerAPI)
	return 1, fmt.Sprintf("Registered [%s] as publisher of [%s]", callerID, topic), m.reg.subs.apis(topic), nil
}

func (m *Master) unregisterPublisher(from, callerID string, args []any) (int, string, any, error) {
	topic, err := isTopic("topic", args[0], callerID)
	if err != nil {
		return 0, "", nil, err
	}
	callerAPI, err := isAPI("caller_api", args[1])
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	code, msg, val := m.reg.unregister(kindPublications, topic, callerID, callerAPI, "")
	if val == 1 {
		m.notifyTopic(topic)
	}
	m.logf("ros master: -PUB [%s] %s %s", topic, callerID, callerAPI)
	return code, msg, val, nil
}

func (m *Master) lookupNode(from, callerID string, args []any) (int, string, any, error) {
	node, err := validName("node", args[0], callerID)
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if n, ok := m.reg.nodes[node]; ok {
		return 1, "node api", n.api, nil
	}
	return -1, fmt.Sprintf("unknown node [%s]", node), "", nil
}

func (m *Master) getPublishedTopics(from, callerID string, args []any) (int, string, any, error) {
	s, ok := args[0].(string)
	if !ok {
		return 0, "", nil, invalidParam("ERROR: parameter [subgraph] must be a string")
	}
	subgraph := ""
	if s != "" {
		subgraph = resolveName(s, callerID)
	}
	if subgraph != "" && !strings.HasSuffix(subgraph, sep) {
		subgraph += sep
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []any{}
	for _, t := range m.reg.pubs.keys() {
		if strings.HasPrefix(t, subgraph) {
			out = append(out, []any{t, m.topicTypes[t]})
		}
	}
	return 1, "current topics", out, nil
}

func (m *Master) getTopicTypes(string, string, []any) (int, string, any, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []any{}
	for _, t := range sortedKeys(m.topicTypes) {
		out = append(out, []any{t, m.topicTypes[t]})
	}
	return 1, "current system state", out, nil
}

func (m *Master) getSystemState(string, string, []any) (int, string, any, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return 1, "current system state", []any{m.reg.pubs.state(), m.reg.subs.state(), m.reg.services.state()}, nil
}

// ---- Parameter Server API ----

func (m *Master) deleteParam(from, callerID string, args []any) (int, string, any, error) {
	key, err := nonEmptyStr("key", args[0])
	if err != nil {
		return 0, "", nil, err
	}
	key = resolveName(key, callerID)
	m.mu.Lock()
	defer m.mu.Unlock()
	old, _ := paramGet(m.params, key)
	if err := paramDelete(m.params, key); err != nil {
		return -1, fmt.Sprintf("parameter [%s] is not set", key), 0, nil
	}
	parts := splitName(key)
	m.paramBytes -= memberBytes(parts[len(parts)-1]) + paramBytes(old)
	m.notifyParams(computeParamUpdates(m.reg.paramSubs, key, map[string]any{}, "", false))
	m.logf("ros master: -PARAM [%s] by %s", key, callerID)
	return 1, fmt.Sprintf("parameter %s deleted", key), 0, nil
}

func (m *Master) setParam(from, callerID string, args []any) (int, string, any, error) {
	key, err := nonEmptyStr("key", args[0])
	if err != nil {
		return 0, "", nil, err
	}
	if args[1] == nil {
		return 0, "", nil, invalidParam("ERROR: parameter [value] must be specified")
	}
	key = resolveName(key, callerID)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.setParamLocked(key, args[1], callerID, true); err != nil {
		return -1, "Error: invalid arguments: " + err.Error(), 0, nil
	}
	m.logf("ros master: +PARAM [%s] by %s", key, callerID)
	return 1, fmt.Sprintf("parameter %s set", key), 0, nil
}

func (m *Master) getParam(from, callerID string, args []any) (int, string, any, error) {
	key, err := nonEmptyStr("key", args[0])
	if err != nil {
		return 0, "", nil, err
	}
	key = resolveName(key, callerID)
	m.mu.Lock()
	defer m.mu.Unlock()
	v, err := paramGet(m.params, key)
	if err != nil {
		return -1, fmt.Sprintf("Parameter [%s] is not set", key), 0, nil
	}
	if encodedLen(v, maxReplyValue) > maxReplyValue {
		m.refuse(fmt.Errorf("getParam(%s) by %s: over the reply limit", key, callerID))
		return -1, fmt.Sprintf("Parameter [%s] is over %d MiB of XML-RPC, the master's limit on a reply (MaxReplyBytes): get the parameters below it one at a time (getParamNames lists them)", key, MaxReplyBytes>>20), 0, nil
	}
	return 1, fmt.Sprintf("Parameter [%s]", key), copyTree(v), nil
}

func (m *Master) searchParam(from, callerID string, args []any) (int, string, any, error) {
	key, err := nonEmptyStr("key", args[0])
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	found, err := paramSearch(m.params, callerID, key)
	if err != nil {
		return 0, "", nil, err
	}
	if found == "" {
		return -1, fmt.Sprintf("Cannot find parameter [%s] in an upwards search", key), "", nil
	}
	return 1, fmt.Sprintf("Found [%s]", found), found, nil
}

func (m *Master) paramSubArgs(callerID string, args []any) (api, key string, err error) {
	if api, err = isAPI("caller_api", args[0]); err != nil {
		return
	}
	if key, err = nonEmptyStr("key", args[1]); err != nil {
		return
	}
	key = resolveName(key, callerID)
	if key != sep {
		key = canonicalName(key) + sep
	}
	return
}

func (m *Master) subscribeParam(from, callerID string, args []any) (int, string, any, error) {
	api, key, err := m.paramSubArgs(callerID, args)
	if err != nil {
		return 0, "", nil, err
	}
	if err := m.guardName(callerID, api); err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, err := paramGet(m.params, key)
	if err != nil {
		v = map[string]any{}
	}
	if err := m.admitLocked(kindParamSubscriptions, key, callerID, api, "", "", from); err != nil {
		return 0, "", nil, err
	}
	m.handleBumped(m.reg.register(kindParamSubscriptions, key, callerID, api, "", from), callerID)
	m.logf("ros master: +CACHEDPARAM [%s] by %s", key, callerID)
	return 1, fmt.Sprintf("Subscribed to parameter [%s]", strings.TrimSuffix(key, sep)+sepIfRoot(key)), copyTree(v), nil
}

func sepIfRoot(key string) string {
	if key == sep {
		return sep
	}
	return ""
}

func (m *Master) unsubscribeParam(from, callerID string, args []any) (int, string, any, error) {
	api, key, err := m.paramSubArgs(callerID, args)
	if err != nil {
		return 0, "", nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reg.unregister(kindParamSubscriptions, key, callerID, api, "")
	m.logf("ros master: -CACHEDPARAM [%s] by %s", key, callerID)
	return 1, fmt.Sprintf("Unsubscribe to parameter [%s]", strings.TrimSuffix(key, sep)+sepIfRoot(key)), 1, nil
}

func (m *Master) hasParam(from, callerID string, args []any) (int, string, any, error) {
	key, err := nonEmptyStr("key", args[0])
	if err != nil {
		return 0, "", nil, err
	}
	key = resolveName(key, callerID)
	m.mu.Lock()
	defer m.mu.Unlock()
	_, err = paramGet(m.params, key)
	return 1, key, err == nil, nil
}

func (m *Master) getParamNames(string, string, []any) (int, string, any, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return 1, "Parameter names", paramNames(m.params), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
