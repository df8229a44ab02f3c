// Package config reads a robot's YAML device list: the spec's `joints:`
// list of sensors, actuators and special devices, each with a `name`, a
// `type` and that type's keys.
//
// One Type per device type is the single source of truth: its Keys drive
// decoding, validation, `frcd describe`, docs/devices.md and the JSON
// Schema from `frcd schema`, and its Facts (facts.go) are what the other
// layers know of it. The types are declared in package devices, one file
// each, and registered here (Register) by their drivers: config keeps the
// framework and the registry, and imports no driver. A program that reads
// a robot's YAML imports package devices so that the types are there; a
// reference key names roles (Role), never type names.
//
// The files: parse.go walks the YAML, decode.go decodes and checks each
// key, claims.go claims channels (the wiring rules), checks.go holds the
// cross-checks, refs.go resolves references; describe.go, markdown.go and
// schema.go write the text, markdown and JSON Schema; sections.go and
// controllers.go hold the loop, sim, linux and controller types.
//
// Parse reports every problem at once as diag findings with file:line:col:
// YAML syntax, wrong scalar types, duplicate and unknown keys (with
// did-you-mean), missing required keys, values out of range, references to
// missing devices, and two devices on one channel. Cross-checks against the
// URDF live in package robot.
//
// config imports only the standard library, gopkg.in/yaml.v3, diag and frc.
package config
