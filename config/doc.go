// Package config reads a robot's YAML device list: the spec's `joints:`
// list of sensors, actuators and special devices, each with a `name`, a
// `type` and that type's keys.
//
// One Type per device type (devices_*.go) is the single source of truth:
// its Keys drive decoding, validation, `frcd describe`, docs/devices.md and
// the JSON Schema from `frcd schema`. Adding a device type means adding one
// Type value.
//
// Parse reports every problem at once as diag findings with file:line:col:
// YAML syntax, wrong scalar types, duplicate and unknown keys (with
// did-you-mean), missing required keys, values out of range, references to
// missing devices, and two devices on one channel. Cross-checks against the
// URDF live in package robot.
//
// config imports only the standard library, gopkg.in/yaml.v3 and diag.
package config
