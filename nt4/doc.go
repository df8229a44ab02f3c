// Package nt4 is a NetworkTables 4 server (allwpilib
// ntcore/doc/networktables4.adoc) for FRC dashboards: AdvantageScope,
// Elastic, and any NT4 client.
//
// The wire: a WebSocket at /nt/NAME (port 5810 by convention; frcd binds
// 127.0.0.1 unless told otherwise), subprotocol
// v4.1.networktables.first.wpi.edu or networktables.first.wpi.edu (4.0),
// plus 4.1's rtt.networktables.first.wpi.edu connection, which only
// answers time messages. A second main connection with a NAME in use is
// served as NAME@1 (NAME@2...), as the spec says since 2022 (names need
// not be unique; Elastic always connects as Elastic, AdvantageScope as
// AdvantageScope); a handshake offering neither subprotocol 400. A
// plain GET of / is answered 200 (AdvantageScope probes it before it
// connects). Text frames are JSON arrays of control messages (publish,
// unpublish, setproperties, subscribe, unsubscribe from the client;
// announce, unannounce, properties from the server); binary frames are
// MessagePack messages [id, timestamp µs, type, value]. A message with id
// -1 is answered at once with [-1, server time µs, type, the client's
// value]; the server's time is the loop's clock.
//
// frcd's topics come from a telemetry.Source (Publish, called off the
// loop); clients may publish topics of their own, which the server relays
// to other clients, but not values on frcd's topics (refused and
// counted). Client values under Options.CommandPrefix go to
// Options.Commands (dashboards' commands and PID gains), and a publish of
// a command topic must carry the type Options.CommandType says. Of frcd's
// own topics, the tunables (Options.Tunable: WPILib 2027's /Tunables) take
// clients' values too, as commands, of the topic's type. Other client
// values go to Options.Observe, when set (a dashboard chooser's
// selection), whose error is a refusal.
//
// Nothing is refused silently: a publish to one of frcd's own topics, of
// a type other than the topic's, past a limit, a subscription past a
// limit, a value of the wrong type or size, a refused command are each
// counted (Stats) and logged with
// the reason (a client's refusals at most 10 lines at once, then one a
// second, with the count of those not logged). At shutdown every
// connection gets a close frame (1001, going away) and a second to answer.
//
// As ntcore does, a topic is announced to a client only when one of its
// subscriptions matches it (subscribe's 4.1 topics with options prefix,
// topicsonly, periodic, and 4.0's prefixes). Each client gets, every
// period (the shortest of its subscriptions', 10 ms to 1 s, default
// 100 ms), the latest value of each topic it wants that changed: a queue
// one deep per topic that drops the older value, so a slow client never
// holds memory for the values it missed. A subscription with the option
// all (networktables4.adoc, "Subscription Options": "send all value
// changes over the wire") gets every value instead, in order, queued per
// client up to 512 KiB between two periods (past it values are counted
// in Stats.ValuesLost and logged). AdvantageScope's logging mode
// subscribes so (prefix "", all, periodic 0.02: NT4Source.ts); frcd's
// telemetry passes every loop cycle's joint states on
// (telemetry.Options.EveryCycle), so such a client sees one sample a
// cycle. Its control messages queue up to a bound, past which the client
// is dropped.
//
// Limits: 32 main connections and 32 RTT connections, 8 of each from one
// remote address, a newcomer taking the place of the idlest client that
// never subscribed or published (admission.go; refused with 503 only when
// every client in its way did); a message of 1 MiB;
// 4096 topics, of which 512 created by clients; a client's value of
// 64 KiB; 256 subscriptions (with 128 KiB of topic names in all) and 256
// publishers (names of 1 KiB at most) per client; handshake
// headers of 16 KiB read within 5 s; every write within 2 s; a ping every
// 2 s, answered within 2 s, or the connection is closed. With
// Options.Retry, a port another program holds is tried again every Retry
// (ListenErr says why it does not listen yet).
//
// The message codec and the client side (Conn: Dial, Subscribe, Publish,
// Set, the announced topics and their latest values; frcd's tests and the
// Systemcore VM's agent use it) are package nt4/wire, which imports no
// frcd package: a user of the client does not pull in this server.
//
// The meta topics $clients, $serverpub, $serversub, $clientsub$NAME and
// $clientpub$NAME are served (meta.go), hidden from the prefix "" as the
// spec says; the per-topic $sub$TOPIC and $pub$TOPIC are not, nor
// getvalues (4.0), persistent topics, TLS on 5811, 4.2's subprotocol.
// AdvantageScope (39b8239 src/hub/dataSources/nt4) and Elastic (d725321
// lib/services) subscribe to no meta topic.
//
// frcd's own topics cost only what their clients read: Publish encodes a
// topic only while a client subscribes to its values, and Interest tells
// the telemetry source which ones those are (telemetry.Source.Want).
package nt4
