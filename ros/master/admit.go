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

// admitLocked says whether node id at api may register on key (with
// topic type typ, "" for none) without taking the master past its limits;
// an error says which limit it would pass. A registration the master
// holds already is always admitted.
func (m *Master) admitLocked(kind regKind, key, id, api, svc, typ string) error {
	r := m.reg.of(kind)
	if kind != kindServices && r.has(key, id, api) {
		return nil
	}
	if n := m.reg.nodes[id]; n != nil && n.api == api { // (another api would replace the node)
		count := 0
		for _, keys := range n.regs {
			count += len(keys)
		}
		if count >= MaxNodeRegistrations {
			return m.refuse(fmt.Errorf("node %s has %d registrations, the master's limit for one node", id, MaxNodeRegistrations))
		}
	}
	if m.registrations() >= MaxRegistrations {
		return m.refuse(fmt.Errorf("the master holds %d registrations, its limit", MaxRegistrations))
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
