package master

import "sort"

// Registration bookkeeping with the semantics of rosmaster's
// registrations.py. Not safe for concurrent use: the Master's mutex guards it.

type regKind int

const (
	kindSubscriptions regKind = iota + 1
	kindPublications
	kindServices
	kindParamSubscriptions
)

// provider is one registrant of a key: a node name and its slave API URI.
type provider struct {
	id  string
	api string
}

// registrations maps keys (topics, services, parameter keys) to the nodes
// registered on them, in registration order.
type registrations struct {
	kind regKind
	m    map[string][]provider
	// serviceAPI maps a service to its provider's node name and rosrpc URI.
	serviceAPI map[string]provider
	// n counts the registrations and bytes what the state file holds of
	// them (regBytes).
	n, bytes int
	// onCount, when set, is told of each registration counted in (sign
	// 1) or out (-1), by node: the registry's count per address.
	onCount func(id string, sign int)
}

// regBytes is what one registration takes in the state file: the
// XML-RPC encoding of [kind, key, node, api, service api].
func regBytes(kind regKind, key, id, api, svc string) int {
	return arrayFrame + intLen(int64(kind)) + 4*stringFrame + escapedLen(key) + escapedLen(id) + escapedLen(api) + escapedLen(svc)
}

// count adds (sign 1) or takes away (-1) provider p of key.
func (r *registrations) count(sign int, key string, p provider) {
	svc := ""
	if r.kind == kindServices {
		svc = r.serviceAPI[key].api
	}
	r.n += sign
	r.bytes += sign * regBytes(r.kind, key, p.id, p.api, svc)
	if r.onCount != nil {
		r.onCount(p.id, sign)
	}
}

func newRegistrations(kind regKind) *registrations {
	return &registrations{kind: kind, m: map[string][]provider{}, serviceAPI: map[string]provider{}}
}

// keys returns the registered keys, sorted.
func (r *registrations) keys() []string {
	keys := make([]string, 0, len(r.m))
	for k := range r.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// apis returns the slave API URIs registered on key (never nil).
func (r *registrations) apis(key string) []any {
	out := []any{}
	for _, p := range r.m[key] {
		out = append(out, p.api)
	}
	return out
}

// state returns [[key, [node names]], ...] as getSystemState reports it.
func (r *registrations) state() []any {
	out := []any{}
	for _, k := range r.keys() {
		ids := []any{}
		for _, p := range r.m[k] {
			ids = append(ids, p.id)
		}
		out = append(out, []any{k, ids})
	}
	return out
}

func (r *registrations) register(key, id, api, serviceAPI string) {
	if serviceAPI != "" {
		// A service has a single provider: the latest registration wins.
		for _, p := range r.m[key] {
			r.count(-1, key, p)
		}
		r.m[key] = []provider{{id, api}}
		r.serviceAPI[key] = provider{id, serviceAPI}
		r.count(1, key, provider{id, api})
		return
	}
	for _, p := range r.m[key] {
		if p.id == id && p.api == api {
			return
		}
	}
	r.m[key] = append(r.m[key], provider{id, api})
	r.count(1, key, provider{id, api})
}

// has says whether node id at api is registered on key.
func (r *registrations) has(key, id, api string) bool {
	for _, p := range r.m[key] {
		if p.id == id && p.api == api {
			return true
		}
	}
	return false
}

// unregisterAll drops every registration of node id and returns the keys
// it was registered on.
func (r *registrations) unregisterAll(id string) []string {
	var dropped []string
	for key, ps := range r.m {
		kept := ps[:0:0]
		for _, p := range ps {
			if p.id != id {
				kept = append(kept, p)
			} else {
				r.count(-1, key, p)
			}
		}
		if len(kept) != len(ps) {
			dropped = append(dropped, key)
		}
		if len(kept) == 0 {
			delete(r.m, key)
		} else {
			r.m[key] = kept
		}
	}
	for key, p := range r.serviceAPI {
		if p.id == id {
			delete(r.serviceAPI, key)
		}
	}
	sort.Strings(dropped)
	return dropped
}

// unregister removes one registration and returns rosmaster's
// [code, message, 0|1] result.
func (r *registrations) unregister(key, id, api, serviceAPI string) (int, string, int) {
	if r.kind == kindServices {
		if p, ok := r.serviceAPI[key]; !ok || p != (provider{id, serviceAPI}) {
			if len(r.serviceAPI) == 0 {
				return 1, "[" + id + "] is not a provider of [" + key + "]", 0
			}
			return 1, "[" + serviceAPI + "] is no longer the current service api handle for [" + key + "]", 0
		}
		for _, p := range r.m[key] {
			r.count(-1, key, p)
		}
		delete(r.serviceAPI, key)
		delete(r.m, key)
		return 1, "Unregistered [" + id + "] as provider of [" + key + "]", 1
	}
	ps := r.m[key]
	for i, p := range ps {
		if p.id == id && p.api == api {
			r.count(-1, key, p)
			ps = append(ps[:i:i], ps[i+1:]...)
			if len(ps) == 0 {
				delete(r.m, key)
			} else {
				r.m[key] = ps
			}
			return 1, "Unregistered [" + id + "] as provider of [" + key + "]", 1
		}
	}
	return 1, "[" + id + "] is not a known provider of [" + key + "]", 0
}

// nodeRef is what the master knows of one node: its slave API, what it
// registered, the address it registered from and what the liveness
// checks found of it (liveness.go).
type nodeRef struct {
	id   string
	api  string
	regs map[regKind]map[string]bool
	// from is the remote host of the request that made the node (its
	// API's host for one restored from the state file): the address its
	// registrations count against (admit.go).
	from string
	// failed counts the liveness checks in a row its API did not answer.
	failed int
}

func (n *nodeRef) add(kind regKind, key string) {
	if n.regs[kind] == nil {
		n.regs[kind] = map[string]bool{}
	}
	n.regs[kind][key] = true
}

func (n *nodeRef) remove(kind regKind, key string) { delete(n.regs[kind], key) }

func (n *nodeRef) empty() bool {
	for _, m := range n.regs {
		if len(m) != 0 {
			return false
		}
	}
	return true
}

// registry holds all registrations and the node table.
type registry struct {
	nodes     map[string]*nodeRef
	pubs      *registrations
	subs      *registrations
	services  *registrations
	paramSubs *registrations
	// addrRegs counts the registrations per address they were made from
	// (nodeRef.from), and remoteRegs those from addresses that are not
	// this computer's (admit.go).
	addrRegs   map[string]int
	remoteRegs int
	// apiNodes counts the nodes per API host and port (apiHostPort): a
	// ROS node has an API of its own (admit.go).
	apiNodes map[string]int
}

func newRegistry() *registry {
	g := &registry{
		nodes:     map[string]*nodeRef{},
		pubs:      newRegistrations(kindPublications),
		subs:      newRegistrations(kindSubscriptions),
		services:  newRegistrations(kindServices),
		paramSubs: newRegistrations(kindParamSubscriptions),
		addrRegs:  map[string]int{},
		apiNodes:  map[string]int{},
	}
	for _, r := range []*registrations{g.pubs, g.subs, g.services, g.paramSubs} {
		r.onCount = g.countAddr
	}
	return g
}

// countAddr counts a registration of node id in (sign 1) or out (-1) of
// its address's.
func (g *registry) countAddr(id string, sign int) {
	n := g.nodes[id]
	if n == nil {
		return
	}
	if g.addrRegs[n.from] += sign; g.addrRegs[n.from] <= 0 {
		delete(g.addrRegs, n.from)
	}
	if !isLocal(n.from) {
		g.remoteRegs += sign
	}
}

// dropNode drops every registration of node id and the node, and returns
// the topics it published (whose subscribers need a publisherUpdate).
func (g *registry) dropNode(id string) []string {
	topics := g.pubs.unregisterAll(id)
	g.subs.unregisterAll(id)
	g.services.unregisterAll(id)
	g.paramSubs.unregisterAll(id)
	g.forget(id)
	return topics
}

// forget deletes node id from the node table.
func (g *registry) forget(id string) {
	n := g.nodes[id]
	if n == nil {
		return
	}
	hp := apiHostPort(n.api)
	if g.apiNodes[hp]--; g.apiNodes[hp] <= 0 {
		delete(g.apiNodes, hp)
	}
	delete(g.nodes, id)
}

func (g *registry) of(kind regKind) *registrations {
	switch kind {
	case kindPublications:
		return g.pubs
	case kindSubscriptions:
		return g.subs
	case kindServices:
		return g.services
	default:
		return g.paramSubs
	}
}

// bumped describes a node displaced by a new registration under its name.
type bumped struct {
	api string
	// topics the displaced node published, whose subscribers need a
	// publisherUpdate.
	topics []string
}

// register records a registration made from address from. If the node
// name was known with another slave API, the old node's registrations
// are dropped and returned.
func (g *registry) register(kind regKind, key, id, api, serviceAPI, from string) *bumped {
	var b *bumped
	n := g.nodes[id]
	if n == nil || n.api != api {
		if n != nil {
			b = &bumped{api: n.api, topics: g.dropNode(id)}
		}
		n = &nodeRef{id: id, api: api, regs: map[regKind]map[string]bool{}, from: from}
		g.nodes[id] = n
		g.apiNodes[apiHostPort(api)]++
	}
	n.add(kind, key)
	g.of(kind).register(key, id, api, serviceAPI)
	return b
}

// unregister removes one registration, forgetting the node once it has none.
func (g *registry) unregister(kind regKind, key, id, api, serviceAPI string) (int, string, int) {
	n := g.nodes[id]
	if n == nil {
		return 1, "[" + id + "] is not a registered node", 0
	}
	code, msg, val := g.of(kind).unregister(key, id, api, serviceAPI)
	if val == 1 {
		n.remove(kind, key)
	}
	if n.empty() {
		g.forget(id)
	}
	return code, msg, val
}
