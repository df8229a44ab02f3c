// Package cdr encodes and decodes OMG CDR as DDS carries it in a sample's
// serialized payload: XCDR version 1 (plain CDR), little or big endian,
// behind the four-byte encapsulation header. It knows nothing of RTPS or
// of ROS; package ros2msg builds ROS 2's message types on it.
//
// Wire facts, each with its source:
//   - The serialized payload starts with a 2-byte representation identifier
//     then 2 bytes of options (DDSI-RTPS 2.3 §10.2 "SerializedPayloadHeader";
//     DDS-XTypes 1.3 §7.6.3.1.2). Identifiers: CDR_BE 0x0000, CDR_LE 0x0001,
//     PL_CDR_BE 0x0002, PL_CDR_LE 0x0003 (the identifier read as a big-endian
//     16-bit number; Cyclone DDS 0.10.2 dds/ddsi/q_protocol.h CDR_BE..PL_CDR_LE).
//     Both Cyclone's and Fast DDS's rmw layers write CDR_LE on little-endian
//     machines.
//   - Alignment is counted from the first byte after the encapsulation
//     header: each primitive starts at an offset that is a multiple of its
//     size (1, 2, 4 or 8 bytes; XCDR1 aligns 8-byte types to 8, where XCDR2
//     stops at 4) (CORBA 3.3 Part 2 §9.3.1.1 "Alignment"; DDS-XTypes 1.3
//     §7.4.1.1). Padding bytes are zero on write and ignored on read.
//   - boolean is one byte, 0 or 1; a string is a uint32 length that counts
//     the terminating NUL, the bytes, then the NUL (CORBA 3.3 Part 2
//     §9.3.2.7); a sequence is a uint32 element count then the elements
//     (§9.3.2.5); a fixed array is its elements with no count.
//   - The options' two low bits may say how many padding bytes the writer
//     appended to reach a multiple of 4 (DDSI-RTPS 2.5 §10.2; Cyclone sets
//     them): a reader ignores bytes left over after the last field.
//
// Decoding is bounded by the payload: a string or sequence longer than the
// bytes left is an error before anything is allocated, so no input makes
// the decoder allocate more than a small multiple of its size.
package cdr
