// Package wpilog writes and reads WPILib data log files (WPILOG,
// wpiutil's datalog.adoc, version 1.0): an 8-byte header and extra
// header string, then records of entry id, payload size and a
// microsecond timestamp, each field as few little-endian bytes as it
// needs; entry 0 carries the control records Start, Finish and Set
// Metadata.
//
// Log records frcd's telemetry as WPILib's DataLogManager does (the
// topics the NT4 server publishes mirrored under NT:, integers as int64;
// the Driver Station and joysticks under DS:; systemTime; messages) and
// every command the controllers received or refused, into one file per run named by
// its start time, flushed to disk at least once a second, rotated past a
// size cap with the oldest files removed. Read is the reader behind
// `frcd log summary`, with limits on every size it reads.
package wpilog
