// Package master is an embedded ROS 1 master: the Master API (topic,
// service and node registrations, with publisherUpdate notifications to
// subscribers) and the Parameter Server API, served over XML-RPC from
// inside frcd so that stock ROS tools (rostopic, rosnode, rosparam) and
// roscpp or rospy nodes work on a robot that has no ROS install.
//
// Semantics and return values follow the reference rosmaster: every API
// call returns [code, statusMessage, value], with code 1 for success, -1
// for a caller error and 0 for a failure. The package carries its own small
// XML-RPC codec (DecodeCall, EncodeResponse, EncodeFault, Call) because the
// parameter server needs <struct> values. It also serves XML-RPC's
// system.multicall (multicall.go) and, with Options.StateFile, keeps its
// state across restarts (persist.go), which rosmaster does not.
//
// Unlike rosmaster, it bounds what a client can make it hold and do:
// request bodies (MaxBodySize), value nesting (MaxDepth), the parameter
// server's total size (MaxParamBytes) and its names' depth (MaxNameDepth);
// the registrations, per node and in all (MaxNodeRegistrations,
// MaxRegistrations, MaxGraphBytes); every reply (MaxReplyBytes: a getParam
// of a larger subtree is answered -1 with a message, counted by Refused);
// and the state file, whose write and read limit is the same
// (MaxStateBytes); connections, in all and per remote address
// (MaxConns, MaxConnsPerAddr), and request bodies being read from one
// address (MaxBodiesPerAddr, answered 503 past it, counted by
// PeerRefused, peers.go), the limits above refusing at the request whatever
// would pass it, so that whatever was written is read back. Sizes are
// counted in bytes of XML-RPC as the master writes it (encodedLen). Its
// name walks are linear in the tree, so the lock every call takes is
// never held across more than linear work; and every reply is well-formed
// XML whatever bytes a request carried.
package master
