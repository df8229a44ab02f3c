package master

import "fmt"

// Admission of registrations and topic types under MaxRegistrations,
// MaxNodeRegistrations and MaxGraphBytes, and the count of what the
// master refused. m.mu guards all but the counter.

// typeBytes is what the topic type entry topic -> typ takes in the state
// file.
func typeBytes(topic, typ string) int {
	return memberBytes(topic) + stringFrame + escapedLen(typ)
}

// graphBytes is what the registrations and the types take in the state
// file.
func (m *Master) graphBytes() int {
	n := m.typeBytes
	for _, kind := range []regKind{kindPublications, kindSubscriptions, kindServices, kindParamSubscriptions} {
		n += m.reg.of(kind).bytes
	}
	return n
}

// registrations counts every node's registrations.
func (m *Master) registrations() int {
	n := 0
	for _, kind := range []regKind{kindPublications, kindSubscriptions, kindServices, kindParamSubscriptions} {
		n += m.reg.of(kind).n
	}
	return n
}

// Quotas of the registrations by where they come from, within
// MaxRegistrations, so that no remote address, nor all of them together,
// can take the table from the robot's own nodes (which all come from this
// computer: 127.0.0.1 or ::1).
const (
	// MaxAddrRegistrations bounds the registrations made from one remote
	// address, and MaxRemoteRegistrations those of every remote address
	// together: the rest of MaxRegistrations is the local nodes'.
	MaxAddrRegistrations   = 2500
	MaxRemoteRegistrations = 7500
	// MaxNodesPerAPI bounds the node names registered with one API (host
	// and port): a ROS node serves an API of its own, so more than one
	// name on an API is a node that exited (its port reused) or names
	// made up by someone else.
	MaxNodesPerAPI = 4
)

// fullError is a refusal for a table or a quota that is full: the dead
// nodes in scope may be evicted to make room (liveness.go).
type fullError struct {
	msg   string
	scope func(*nodeRef) bool
}

func (e *fullError) Error() string { return e.msg }

// admitLocked says whether node id at api, registering from address from,
// may register on key (with topic type typ, "" for none) without taking
// the master past its limits; an error says which limit it would pass. A
// registration the master holds already is always admitted. When a table
// or a quota is full it evicts the dead nodes that fill it first
// (evictDead, which releases m.mu while it asks them), and refuses the
// registration only when the living do.
func (m *Master) admitLocked(kind regKind, key, id, api, svc, typ, from string) error {
	err := m.admitOnceLocked(kind, key, id, api, svc, typ, from)
	full, ok := err.(*fullError)
	if !ok {
		return err
	}
	m.mu.Unlock()
	m.evictDead(full.scope)
	m.mu.Lock()
	err = m.admitOnceLocked(kind, key, id, api, svc, typ, from)
	if _, ok := err.(*fullError); ok {
		return m.refuse(err)
	}
	return err
}

func (m *Master) admitOnceLocked(kind regKind, key, id, api, svc, typ, from string) error {
	r := m.reg.of(kind)
	if kind != kindServices && r.has(key, id, api) {
		return nil
	}
	n := m.reg.nodes[id]
	if n != nil && n.api == api { // (another api would replace the node)
		count := 0
		for _, keys := range n.regs {
			count += len(keys)
		}
		if count >= MaxNodeRegistrations {
			return m.refuse(fmt.Errorf("node %s has %d registrations, the master's limit for one node", id, MaxNodeRegistrations))
		}
		from = n.from // its registrations count against the address that made it
	} else if hp := apiHostPort(api); m.reg.apiNodes[hp] >= MaxNodesPerAPI {
		return m.refuse(fmt.Errorf("%d nodes are registered with the API at %s, the master's limit for one API (a node serves its own)", MaxNodesPerAPI, hp))
	}
	if m.registrations() >= MaxRegistrations {
		return &fullError{fmt.Sprintf("the master holds %d registrations, its limit", MaxRegistrations), func(*nodeRef) bool { return true }}
	}
	if !isLocal(from) {
		if m.reg.addrRegs[from] >= MaxAddrRegistrations {
			return &fullError{fmt.Sprintf("%s made %d registrations, the master's limit for one remote address", from, MaxAddrRegistrations),
				func(n *nodeRef) bool { return n.from == from }}
		}
		if m.reg.remoteRegs >= MaxRemoteRegistrations {
			return &fullError{fmt.Sprintf("remote addresses made %d registrations, the master's limit for them (the rest is this computer's nodes')", MaxRemoteRegistrations),
				func(n *nodeRef) bool { return !isLocal(n.from) }}
		}
	}
	grow := regBytes(kind, key, id, api, svc)
	if old, ok := m.topicTypes[key]; typ != "" && (!ok || old != typ) {
		grow += typeBytes(key, typ) - m.typeEntryBytes(key)
	}
	if m.graphBytes()+grow > MaxGraphBytes {
		m.pruneTypesLocked()
		if m.graphBytes()+grow > MaxGraphBytes {
			return m.refuse(fmt.Errorf("the registrations would take %d bytes of the state file, over the master's limit of %d MiB (MaxGraphBytes)", m.graphBytes()+grow, MaxGraphBytes>>20))
		}
	}
	return nil
}

// typeEntryBytes is what topic's type entry takes now (0 without one).
func (m *Master) typeEntryBytes(topic string) int {
	if old, ok := m.topicTypes[topic]; ok {
		return typeBytes(topic, old)
	}
	return 0
}

// setTypeLocked records topic's type, keeping typeBytes.
func (m *Master) setTypeLocked(topic, typ string) {
	m.typeBytes += typeBytes(topic, typ) - m.typeEntryBytes(topic)
	m.topicTypes[topic] = typ
}

// pruneTypesLocked forgets the types of topics no node is registered on
// any longer (rosmaster keeps them for ever). It walks the types only
// when some must be stale (more types than registered topics), so a
// flood of refusals does not walk them each time.
func (m *Master) pruneTypesLocked() {
	if len(m.topicTypes) <= len(m.reg.pubs.m)+len(m.reg.subs.m) {
		return
	}
	for t := range m.topicTypes {
		if len(m.reg.pubs.m[t]) == 0 && len(m.reg.subs.m[t]) == 0 {
			m.typeBytes -= m.typeEntryBytes(t)
			delete(m.topicTypes, t)
		}
	}
}

// refuse counts a refusal and logs it: the first, then every 1000th, so
// that a flood does not flood the log.
func (m *Master) refuse(err error) error {
	if n := m.refused.Add(1); n == 1 || n%1000 == 0 {
		m.logf("ros master: refused (%d so far): %v", n, err)
	}
	return invalidParam(err.Error())
}

// Refused counts the requests the master refused for its limits: a
// registration, a parameter or a reply too large.
func (m *Master) Refused() uint64 { return m.refused.Load() }
