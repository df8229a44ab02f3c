// joint_states.js: Foxglove's RTPS implementation (@foxglove/rtps) as a
// subscriber of a ROS 2 node's /joint_states: rt/joint_states, type
// sensor_msgs::msg::dds_::JointState_, reliable, volatile, keep last 10
// (rmw's default profile), with the output of cmd/frcd's C and C++ peers
// (testdata/ros2/joint_states.c): {"event":"matched"} when it discovers a
// writer of the topic, then per sample {"n":N,"first":"NAME","finite":F,
// "sec":S,"names":[...]} (F 1 when positions, velocities and efforts are N
// finite values each), or {"event":"bad","error":"..."} for a sample that
// does not decode; it exits after COUNT good samples. It discovers by
// multicast on its host's route for 239.255.0.1 and announces ADDRESS as
// its unicast address (peer.js).
//
// Usage: node joint_states.js DOMAIN COUNT ADDRESS
"use strict";
const { CdrReader } = require("@foxglove/cdr");
const { print, subscribe, run } = require("./peer");

// maxJoints bounds the names and values a sample may carry (frcd's robots
// have tens of joints).
const maxJoints = 1024;

// decode reads a JointState from its CDR (encapsulation header first, as
// CdrReader expects), in the order of sensor_msgs/msg/JointState.msg:
// std_msgs/Header (builtin_interfaces/Time stamp: int32 sec, uint32
// nanosec; string frame_id), string[] name, float64[] position, velocity,
// effort. CdrReader throws on a read past the end.
function decode(data) {
  const r = new CdrReader(data);
  const sec = r.int32();
  const nanosec = r.uint32();
  const frameId = r.string();
  const n = r.sequenceLength();
  if (n > maxJoints) throw new Error(`${n} names, over ${maxJoints}`);
  const names = r.stringArray(n);
  const arrays = [];
  for (let i = 0; i < 3; i++) {
    const len = r.sequenceLength();
    if (len > maxJoints) throw new Error(`${len} values, over ${maxJoints}`);
    arrays.push(r.float64Array(len));
  }
  return { sec, nanosec, frameId, names, arrays };
}

run(async () => {
  const [domainArg, countArg, address] = process.argv.slice(2);
  const domain = Number(domainArg);
  const count = Number(countArg);
  if (!Number.isInteger(domain) || !Number.isInteger(count) || address === undefined) {
    console.error("usage: node joint_states.js DOMAIN COUNT ADDRESS");
    process.exit(2);
  }
  await subscribe({
    name: "foxglove_joint_states",
    address,
    domain,
    topic: "rt/joint_states",
    type: "sensor_msgs::msg::dds_::JointState_",
    reliable: true,
    transient: false,
    count,
    onSample: (data) => {
      let m;
      try {
        m = decode(data);
      } catch (err) {
        print({ event: "bad", error: String(err) });
        return false;
      }
      const n = m.names.length;
      const finite = m.arrays.every((a) => a.length === n && a.every(Number.isFinite)) ? 1 : 0;
      print({ n, first: n > 0 ? m.names[0] : "", finite, sec: m.sec, names: m.names });
      return true;
    },
  });
});
