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
const { Participant, Durability, Reliability, HistoryKind } = require("@foxglove/rtps");
const { UdpSocketNode } = require("@foxglove/rtps/nodejs");
const { CdrReader } = require("@foxglove/cdr");

const topic = "rt/chatter";
const type = "std_msgs::msg::dds_::String_";

function print(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function main() {
  const [domain, count, reliable, transient] = process.argv.slice(2).map(Number);
  const p = new Participant({
    name: "foxglove",
    addresses: ["127.0.0.1"],
    domainId: domain,
    udpSocketCreate: UdpSocketNode.Create,
    log: process.env.RTPS_DEBUG ? { debug: console.error, info: console.error, warn: console.error, error: console.error } : undefined,
  });
  p.on("error", (err) => console.error(String(err)));
  let matched = false;
  p.on("discoveredPublication", (ep) => {
    if (!matched && ep.topicName === topic) {
      matched = true;
      print({ event: "matched" });
    }
  });
  let got = 0;
  p.on("userData", (ud) => {
    if (ud.subscription.topicName !== topic) return;
    const s = new CdrReader(ud.serializedData).string();
    let head = s.indexOf("x");
    if (head < 0 || head > 32) head = Math.min(s.length, 32);
    print({ len: s.length, head: s.slice(0, head) });
    if (++got >= count) {
      p.shutdown().finally(() => process.exit(0));
    }
  });
  await p.start();
  p.subscribe({
    topicName: topic,
    typeName: type,
    durability: transient ? Durability.TransientLocal : Durability.Volatile,
    reliability: { kind: reliable ? Reliability.Reliable : Reliability.BestEffort, maxBlockingTime: { sec: 0, nsec: 100000000 } },
    history: { kind: HistoryKind.KeepLast, depth: 10 },
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
