// client.js: drives frcd's NetworkTables 4 server with a third-party NT4
// client, ntcore-ts-client (npm), for nt4/node_test.go.
//
// Usage: node client.js watch PORT PREFIX...
//   subscribes to each topic prefix with ntcore-ts-client and prints one
//   JSON object per line on stdout:
//     {"event":"connected"}
//     {"event":"value","name":"/frcd/joints/x/velocity","type":"double","value":1.5}
//   ntcore-ts-client logs plain-text lines of its own; readers skip lines
//   that are not JSON objects. Each line on stdin is one more prefix to
//   subscribe to, at once; {"event":"subscribed","name":PREFIX} says so.
//   A line "set NAME VALUE" instead publishes the double topic NAME (a
//   WPILib 2027 tunable: the robot's own topic) with ntcore-ts-client and
//   sets it to VALUE; {"event":"set","name":NAME,"value":VALUE} says so.
//   A line TOPIC=TEXT publishes the string TEXT on TOPIC (as a dashboard's
//   chooser publishes its selection; TOPIC may hold spaces), then prints
//   {"event":"published","name":TOPIC}.
//
// Usage: node client.js log PORT NAME...
//   AdvantageScope's logging mode, on the wire as its NT4.ts speaks it (a
//   WebSocket and MessagePack: ntcore-ts-client's own topic schema rejects
//   the structschema and struct: types every WPILib robot publishes, so it
//   cannot subscribe to "/"): one subscription to the prefix "/" with the
//   options all (every value, not the latest of each period) and periodic
//   0.02; prints {"event":"connected"}, then a value event (as watch does)
//   for each value of the named topics, in the order they arrive.
//
// Usage: node client.js sync PORT NAME
//   checks the wire itself with the same client's WebSocket and MessagePack
//   libraries (ws, @msgpack/msgpack): opens /nt/NAME (v4.1), tries a second
//   /nt/NAME (served too: NT4 makes names unique), opens the v4.1 RTT
//   connection and a 4.0
//   connection and sends each a time message [-1, 0, type, t]; prints
//     {"event":"duplicate","status":101}
//     {"event":"time","proto":"rtt.networktables.first.wpi.edu","reply":[-1,T,1,t]}
//   then {"event":"done"}.
"use strict";

const mode = process.argv[2];
const port = Number.parseInt(process.argv[3], 10);
if (!["watch", "log", "sync"].includes(mode) || !Number.isInteger(port) || port <= 0) {
  console.error("usage: node client.js watch|log|sync PORT ARGS...");
  process.exit(2);
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

if (mode === "watch") {
  const { NetworkTables, NetworkTablesTypeInfos } = require("ntcore-ts-client");
  const nt = NetworkTables.getInstanceByURI("127.0.0.1", port);
  nt.addRobotConnectionListener((connected) => {
    if (connected) emit({ event: "connected" });
  }, true);
  const watch = (prefix) =>
    nt.createPrefixTopic(prefix).subscribe((value, params) => {
      emit({ event: "value", name: params ? params.name : null, type: params ? params.type : null, value: value });
    });
  for (const prefix of process.argv.slice(4)) watch(prefix);
  const published = new Map(); // name -> topic
  const publish = async (name, type, value) => {
    let topic = published.get(name);
    if (!topic) {
      topic = nt.createTopic(name, type);
      published.set(name, topic);
      await topic.publish();
    }
    topic.setValue(value);
  };
  const set = async (name, value) => {
    await publish(name, NetworkTablesTypeInfos.kDouble, value);
    emit({ event: "set", name: name, value: value });
  };
  require("readline")
    .createInterface({ input: process.stdin })
    .on("line", (line) => {
      const words = line.trim().split(/\s+/);
      if (words.length === 3 && words[0] === "set") {
        set(words[1], Number(words[2])).catch((e) => emit({ event: "error", error: String(e) }));
        return;
      }
      const eq = line.indexOf("=");
      if (eq > 0) {
        const name = line.slice(0, eq);
        publish(name, NetworkTablesTypeInfos.kString, line.slice(eq + 1))
          .then(() => emit({ event: "published", name: name }))
          .catch((e) => emit({ event: "error", error: String(e) }));
        return;
      }
      const prefix = line.trim();
      if (prefix === "") return;
      watch(prefix);
      emit({ event: "subscribed", name: prefix });
    });
} else if (mode === "log") {
  const WebSocket = require("ws");
  const { decodeMulti } = require("@msgpack/msgpack");
  const names = new Set(process.argv.slice(4));
  const ws = new WebSocket(`ws://127.0.0.1:${port}/nt/logger`, ["v4.1.networktables.first.wpi.edu", "networktables.first.wpi.edu"]);
  ws.binaryType = "nodebuffer";
  const topics = new Map(); // id -> announce params
  ws.on("open", () => {
    emit({ event: "connected" });
    ws.send(JSON.stringify([{ method: "subscribe", params: { topics: ["/"], subuid: 1, options: { prefix: true, all: true, periodic: 0.02 } } }]));
  });
  ws.on("message", (data, isBinary) => {
    if (!isBinary) {
      for (const m of JSON.parse(data.toString())) {
        if (m.method === "announce") topics.set(m.params.id, m.params);
        if (m.method === "unannounce") topics.delete(m.params.id);
      }
      return;
    }
    for (const m of decodeMulti(data)) {
      const t = topics.get(m[0]);
      if (t && names.has(t.name)) emit({ event: "value", name: t.name, type: t.type, value: m[3] });
    }
  });
  ws.on("error", (err) => {
    emit({ event: "error", error: String(err) });
    process.exit(1);
  });
} else {
  const WebSocket = require("ws");
  const { encode, decodeMulti } = require("@msgpack/msgpack");
  const name = process.argv[4];
  const url = `ws://127.0.0.1:${port}/nt/${name}`;
  const open = (protocols) =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url, protocols);
      ws.binaryType = "nodebuffer";
      ws.on("open", () => resolve(ws));
      ws.on("unexpected-response", (req, res) => reject({ status: res.statusCode }));
      ws.on("error", (err) => reject({ error: String(err) }));
    });
  const timeSync = (ws) =>
    new Promise((resolve) => {
      const t = Math.floor(performance.now() * 1000);
      ws.on("message", (data, isBinary) => {
        if (!isBinary) return;
        for (const m of decodeMulti(data)) {
          if (Array.isArray(m) && m[0] === -1) resolve({ proto: ws.protocol, sent: t, reply: m });
        }
      });
      ws.send(encode([-1, 0, 2, t]));
    });
  (async () => {
    const main = await open(["v4.1.networktables.first.wpi.edu", "networktables.first.wpi.edu"]);
    emit({ event: "open", proto: main.protocol });
    try {
      const dup = await open(["v4.1.networktables.first.wpi.edu", "networktables.first.wpi.edu"]);
      emit({ event: "duplicate", status: 101 });
      dup.close();
    } catch (e) {
      emit(Object.assign({ event: "duplicate" }, e));
    }
    const rtt = await open(["rtt.networktables.first.wpi.edu"]);
    emit(Object.assign({ event: "time" }, await timeSync(rtt)));
    const v40 = await new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/nt/${name}-v40`, ["networktables.first.wpi.edu"]);
      ws.binaryType = "nodebuffer";
      ws.on("open", () => resolve(ws));
      ws.on("error", reject);
    });
    emit(Object.assign({ event: "time" }, await timeSync(v40)));
    for (const ws of [main, rtt, v40]) ws.close();
    emit({ event: "done" });
    process.exit(0);
  })().catch((e) => {
    emit({ event: "error", error: JSON.stringify(e) });
    process.exit(1);
  });
}
