// Package wire is the NetworkTables 4 protocol (allwpilib
// ntcore/doc/networktables4.adoc) without a server: the message codec
// (text frames of JSON control messages, binary frames of MessagePack
// [id, timestamp µs, type, value] messages, the binary type ids, the
// subprotocol names) and Conn, a client (Dial, Subscribe, Publish, Set,
// the announced topics and their latest values).
//
// It sits below the HAL in frcd's layers: it imports no frcd package, so
// a HAL backend or a test agent that speaks NT4 (the Systemcore VM's
// agent, internal/scagent) does not pull in frcd's server, its telemetry
// or the control loop. frcd's server, package nt4, is a transport above
// and reads and writes through this codec.
package wire
