// Package rtps is the OMG DDS Interoperability Wire Protocol (DDSI-RTPS
// 2.3, OMG formal/2019-04-03; section numbers below are that document's)
// in pure Go: messages and submessages, parameter lists, SPDP and SEDP
// discovery, and best-effort and reliable writers and readers, enough to
// talk to Cyclone DDS, Fast DDS and @foxglove/rtps. It knows nothing of
// ROS or of frcd; payloads are opaque bytes (package cdr encodes them).
//
// Wire facts used, each with its source (the spec's section, and the
// header of a Debian package that shows the same value: Cyclone DDS
// 0.10.2 /usr/include/dds/ddsi/q_protocol.h and q_rtps.h, Fast DDS 2.9.1
// /usr/include/fastdds):
//   - A message is a 20-byte header ("RTPS", version 2.x, vendor id, guid
//     prefix; §8.3.3, §9.4.4) then submessages, each {id, flags,
//     octetsToNextHeader} (§9.4.5.1) with flag bit 0 the endianness (1:
//     little). octetsToNextHeader 0 means "to the end of the message"
//     except for PAD and INFO_TS (§9.4.5.1.3). A malformed submessage
//     header invalidates the rest of the message; an unknown id is skipped
//     (§8.3.4.1).
//   - Submessage ids (§9.4.5.1.1): PAD 0x01, ACKNACK 0x06, HEARTBEAT 0x07,
//     GAP 0x08, INFO_TS 0x09, INFO_SRC 0x0c, INFO_DST 0x0e, NACK_FRAG 0x12,
//     HEARTBEAT_FRAG 0x13, DATA 0x15, DATA_FRAG 0x16 (Cyclone SMID_*).
//   - Entity ids are sent big endian whatever the endianness (§9.3.1.2);
//     sequence numbers as a signed high word then an unsigned low word
//     (§9.3.2); a SequenceNumberSet is a base, numBits <= 256 and
//     ceil(numBits/32) words, most significant bit first (§9.4.2.6).
//   - DATA: extraFlags, octetsToInlineQos (16: from after that field to
//     the inline QoS), reader, writer, sequence number, inline QoS if the Q
//     flag (0x02), the serialized payload if D (0x04) or the key if K
//     (0x08) (§9.4.5.3). DATA_FRAG: the same then fragmentStartingNum
//     (from 1), fragmentsInSubmessage, fragmentSize, sampleSize,
//     octetsToInlineQos 28; its K flag is 0x04 (§9.4.5.4).
//   - Parameter lists: {id uint16, length uint16, value}, lengths a
//     multiple of 4, PID_SENTINEL 0x0001 last (§9.4.2.11). An unknown id
//     with bit 0x4000 set (and not vendor specific, 0x8000) makes the list
//     unusable (§9.6.2.2.1). Parameter ids: table 9.12/9.14 (Cyclone PID_*).
//     Discovery data is sent as PL_CDR_LE (encapsulation 0x0003).
//   - Builtin entity ids: participant 0x000001c1, SPDP writer/reader
//     0x000100c2/c7, SEDP publications writer/reader 0x000003c2/c7, SEDP
//     subscriptions writer/reader 0x000004c2/c7 (§9.3.1.3 table 9.2;
//     Cyclone NN_ENTITYID_*). User entities of keyless topics have kind
//     0x03 (writer) and 0x04 (reader).
//   - Ports (§9.6.1.1-§9.6.1.3): PB 7400, DG 250, PG 2, d0 0, d1 10, d2 1,
//     d3 11; SPDP multicast group 239.255.0.1 (§9.6.1.4.1).
//   - QoS on the wire: RELIABILITY {kind 1 best effort | 2 reliable,
//     max_blocking_time}; DURABILITY 0 volatile, 1 transient local;
//     HISTORY {0 keep last | 1 keep all, depth} (Cyclone ddsi_xqos.h
//     DDS_EXTERNAL_RELIABILITY_*, Fast DDS QosPolicies.hpp). Absent, a
//     writer is reliable and a reader best effort (Fast DDS QosPolicies.hpp
//     comment; DDS 1.4 §2.2.3). A writer matches a reader when it offers at
//     least the reliability and durability the reader requests (DDS 1.4
//     §2.2.3 "RxO").
//   - An endpoint or participant deleted: its instance of the SEDP or
//     SPDP topic (keyed by its GUID) is disposed and unregistered, a DATA
//     with inline QoS PID_KEY_HASH 0x0070 (the GUID) and PID_STATUS_INFO
//     0x0071 (4 bytes, big endian whatever the endianness: disposed 1 |
//     unregistered 2) and no payload (§9.6.3.9; Cyclone PID_KEYHASH,
//     PID_STATUSINFO, NN_STATUSINFO_DISPOSE/UNREGISTER). Cyclone makes the
//     key from the key hash and deletes its proxy (withdraw.go).
//
// Every decoder is bounded by its input and fuzzed (FuzzParse).
package rtps
