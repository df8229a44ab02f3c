// client.js: drives frcd's WPILib simulation WebSocket server with WPILib's
// own client library, @wpilib/node-wpilib-ws, for wpilibws/node_test.go.
//
// Usage: node client.js PORT
//
// It prints one JSON object per line on stdout for what it sees:
//   {"event":"ready"}                      connected
//   {"event":"ds","data":{...}}            a DriverStation message
//   {"event":"pwm","channel":N,"data":{...}}
//   {"event":"dio","channel":N,"data":{...}}
//   {"event":"closed"}                     the connection closed
// and takes one JSON command per line on stdin:
//   {"cmd":"enable","value":true}          DriverStation >enabled
//   {"cmd":"dio","channel":N,"value":true} DIO <>value (an input override)
//   {"cmd":"quit"}
// The library logs a few plain-text lines of its own; readers skip lines
// that are not JSON objects.
"use strict";

const readline = require("readline");
const { WPILibWebSocketClient } = require("@wpilib/node-wpilib-ws");

const port = Number.parseInt(process.argv[2], 10);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: node client.js PORT");
  process.exit(2);
}

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

const client = new WPILibWebSocketClient({ hostname: "127.0.0.1", port: port });
client.on("ready", () => emit({ event: "ready" }));
client.on("closeConnection", () => {
  emit({ event: "closed" });
  process.exit(0);
});
client.on("error", (code, reason) => {
  emit({ event: "error", code: String(code), reason: String(reason) });
  process.exit(1);
});
client.on("driverStationEvent", (data) => emit({ event: "ds", data: data }));
client.on("pwmEvent", (channel, data) => emit({ event: "pwm", channel: channel, data: data }));
client.on("dioEvent", (channel, data) => emit({ event: "dio", channel: channel, data: data }));

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  let cmd;
  try {
    cmd = JSON.parse(line);
  } catch (e) {
    emit({ event: "error", reason: "bad command: " + line });
    return;
  }
  switch (cmd.cmd) {
    case "enable":
      client.driverStationUpdateToWpilib({ ">enabled": cmd.value, ">new_data": true });
      break;
    case "dio":
      client.dioUpdateToWpilib(cmd.channel, { "<>value": cmd.value });
      break;
    case "quit":
      process.exit(0);
      break;
    default:
      emit({ event: "error", reason: "unknown command: " + line });
  }
});
rl.on("close", () => process.exit(0));

client.start();
