// subscriber.js: Foxglove's RTPS implementation (@foxglove/rtps) as a peer
// of frcd's rtps package: a subscriber of rt/chatter
// (std_msgs::msg::dds_::String_), with the same output as the C and C++
// peers of rtps/testdata: {"event":"matched"} when it discovers a writer of
// the topic, then {"len":L,"head":"hello I"} per sample, and it exits after
// COUNT samples. @foxglove/rtps discovers by multicast only (its unicast
// port is ephemeral), so the test runs it in a network namespace whose lo
// has multicast on.
//
// Usage: node subscriber.js DOMAIN COUNT RELIABLE TRANSIENT
"use strict";
const { CdrReader } = require("@foxglove/cdr");
const { print, subscribe, run } = require("./peer");

run(async () => {
  const [domain, count, reliable, transient] = process.argv.slice(2).map(Number);
  await subscribe({
    name: "foxglove",
    address: "127.0.0.1",
    domain,
    topic: "rt/chatter",
    type: "std_msgs::msg::dds_::String_",
    reliable,
    transient,
    count,
    onSample: (data) => {
      const s = new CdrReader(data).string();
      let head = s.indexOf("x");
      if (head < 0 || head > 32) head = Math.min(s.length, 32);
      print({ len: s.length, head: s.slice(0, head) });
      return true;
    },
  });
});
