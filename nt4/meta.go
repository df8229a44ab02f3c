package nt4

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/tinylib/msgp/msgp"
)

// The server's meta topics (networktables4.adoc, "Server-Published Meta
// Topics"; allwpilib caf0fb2, ntcore/src/main/native/cpp/server/
// ServerImpl.cpp, ServerSubscriber.cpp, ServerPublisher.cpp): type
// msgpack, property retained, each value a MessagePack array of maps.
//
//	$clients            {id: client name, conn: host:port, ver: 0x0400 or 0x0401}
//	$serverpub          {uid, topic}: frcd's topics (uid: the topic's id)
//	$serversub          empty: frcd's server subscribes to nothing
//	$clientsub$NAME     {uid, topics, options}: the client's subscriptions
//	$clientpub$NAME     {uid, topic}: the client's publishers
//
// options holds only what differs from the defaults, as ntcore writes it:
// all, topicsonly, periodic (s), prefix. Hidden as the spec says: a topic
// starting with $ is announced only to a subscription to it by name or to
// a non-empty prefix of it ("$"), never to the prefix "". Clients may not
// publish names starting with $ (a client to come would find its
// $clientsub$ taken). The per-topic
// $sub$TOPIC and $pub$TOPIC are not served (they would double the topics;
// no dashboard reads them: AdvantageScope 39b8239 and Elastic d725321
// subscribe to no meta topic).

// metaProps are the meta topics' properties.
var metaProps = map[string]json.RawMessage{"retained": json.RawMessage("true")}

// hidden says whether pattern p, a prefix, may match the meta topic name.
func hidden(name, p string) bool { return p == "" && strings.HasPrefix(name, "$") }

// addMeta creates a meta topic (nil past maxTopics). Under s.mu.
func (s *Server) addMeta(name string) *topic {
	props := map[string]json.RawMessage{}
	for k, v := range metaProps {
		props[k] = v
	}
	return s.addTopic(name, "msgpack", props, true)
}

// setMeta sets a meta topic's value to payload. Under s.mu.
func (s *Server) setMeta(t *topic, payload []byte) {
	if t == nil {
		return
	}
	t.value = msgp.AppendBytes(appendHeader(t.value[:0], int64(t.id), s.now(), TypeID("msgpack")), payload)
	s.changed(t)
}

// removeMeta deletes a meta topic, unannouncing it. Under s.mu.
func (s *Server) removeMeta(t *topic) {
	if t == nil || s.topics[t.id] != t {
		return
	}
	s.topics[t.id] = nil
	delete(s.byName, t.name)
	for _, c := range s.clients {
		c.unannounce(t)
	}
}

// initMeta creates the server's meta topics. Under s.mu.
func (s *Server) initMeta() {
	s.metaClients = s.addMeta("$clients")
	s.metaServerPub = s.addMeta("$serverpub")
	s.setMeta(s.addMeta("$serversub"), msgp.AppendArrayHeader(nil, 0))
	s.updateClientsMeta()
	s.setMeta(s.metaServerPub, msgp.AppendArrayHeader(nil, 0))
}

// updateClientsMeta sets $clients, the clients sorted by name. Under s.mu.
func (s *Server) updateClientsMeta() {
	names := slices.Sorted(maps.Keys(s.clients))
	b := msgp.AppendArrayHeader(nil, uint32(len(names)))
	for _, n := range names {
		c := s.clients[n]
		ver := 0x0400
		if c.proto == ProtoV41 {
			ver = 0x0401
		}
		b = msgp.AppendMapHeader(b, 3)
		b = msgp.AppendString(msgp.AppendString(b, "id"), n)
		b = msgp.AppendString(msgp.AppendString(b, "conn"), c.addr)
		b = msgp.AppendInt(msgp.AppendString(b, "ver"), ver)
	}
	s.setMeta(s.metaClients, b)
}

// updateServerPub sets $serverpub: frcd's own topics. Under s.mu.
func (s *Server) updateServerPub() {
	n := 0
	for _, t := range s.topics {
		if t != nil && t.own && !strings.HasPrefix(t.name, "$") {
			n++
		}
	}
	b := msgp.AppendArrayHeader(nil, uint32(n))
	for _, t := range s.topics {
		if t != nil && t.own && !strings.HasPrefix(t.name, "$") {
			b = msgp.AppendMapHeader(b, 2)
			b = msgp.AppendInt(msgp.AppendString(b, "uid"), t.id)
			b = msgp.AppendString(msgp.AppendString(b, "topic"), t.name)
		}
	}
	s.setMeta(s.metaServerPub, b)
}

// addClientMeta creates a client's $clientsub$ and $clientpub$ and
// updates $clients. Under s.mu.
func (c *client) addClientMeta() {
	s := c.s
	c.metaSub, c.metaPub = s.addMeta("$clientsub$"+c.name), s.addMeta("$clientpub$"+c.name)
	c.updateSubMeta()
	c.updatePubMeta()
	s.updateClientsMeta()
}

// dropClientMeta removes them and updates $clients. Under s.mu.
func (c *client) dropClientMeta() {
	s := c.s
	s.removeMeta(c.metaSub)
	s.removeMeta(c.metaPub)
	c.metaSub, c.metaPub = nil, nil
	s.updateClientsMeta()
}

// updateSubMeta sets $clientsub$NAME, by subscription uid. Under s.mu.
func (c *client) updateSubMeta() {
	if c.metaSub == nil {
		return
	}
	uids := slices.Sorted(maps.Keys(c.subs))
	b := msgp.AppendArrayHeader(nil, uint32(len(uids)))
	for _, uid := range uids {
		sub := c.subs[uid]
		b = msgp.AppendMapHeader(b, 3)
		b = msgp.AppendInt64(msgp.AppendString(b, "uid"), uid)
		b = msgp.AppendArrayHeader(msgp.AppendString(b, "topics"), uint32(len(sub.patterns)))
		for _, p := range sub.patterns {
			b = msgp.AppendString(b, p)
		}
		b = msgp.AppendString(b, "options")
		n := 0
		for _, on := range []bool{sub.all, sub.topicsOnly, sub.periodic != nil, sub.prefix} {
			if on {
				n++
			}
		}
		b = msgp.AppendMapHeader(b, uint32(n))
		if sub.all {
			b = msgp.AppendBool(msgp.AppendString(b, "all"), true)
		}
		if sub.topicsOnly {
			b = msgp.AppendBool(msgp.AppendString(b, "topicsonly"), true)
		}
		if sub.periodic != nil {
			b = msgp.AppendFloat64(msgp.AppendString(b, "periodic"), *sub.periodic)
		}
		if sub.prefix {
			b = msgp.AppendBool(msgp.AppendString(b, "prefix"), true)
		}
	}
	c.s.setMeta(c.metaSub, b)
}

// updatePubMeta sets $clientpub$NAME, by publisher uid. Under s.mu.
func (c *client) updatePubMeta() {
	if c.metaPub == nil {
		return
	}
	uids := slices.Sorted(maps.Keys(c.pubs))
	b := msgp.AppendArrayHeader(nil, uint32(len(uids)))
	for _, uid := range uids {
		b = msgp.AppendMapHeader(b, 2)
		b = msgp.AppendInt64(msgp.AppendString(b, "uid"), uid)
		b = msgp.AppendString(msgp.AppendString(b, "topic"), c.pubs[uid].name)
	}
	c.s.setMeta(c.metaPub, b)
}
