// peer.js: what the @foxglove/rtps peers (subscriber.js, joint_states.js)
// share: one JSON object per line on stdout, and a participant that
// subscribes to one topic, says {"event":"matched"} when it discovers a
// writer of it, hands each sample's serialized data (CDR, encapsulation
// header first) to onSample, and exits 0 after count samples.
// @foxglove/rtps discovers by multicast only (its unicast port is
// ephemeral), on its host's route for 239.255.0.1, and announces
// address as its unicast address.
"use strict";
const { Participant, Durability, Reliability, HistoryKind } = require("@foxglove/rtps");
const { UdpSocketNode } = require("@foxglove/rtps/nodejs");

function print(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

// subscribe starts the participant name on domain and subscribes to
// topic (type) with keep last 10, reliable or best effort, volatile or
// transient local.
async function subscribe({ name, address, domain, topic, type, reliable, transient, count, onSample }) {
  const p = new Participant({
    name,
    addresses: [address],
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
    if (ud.subscription.topicName !== topic || got >= count) return;
    if (onSample(ud.serializedData) && ++got >= count) {
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

// run runs main, exiting 1 on its error.
function run(main) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

module.exports = { print, subscribe, run };
