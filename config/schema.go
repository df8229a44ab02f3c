package config

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Schema returns a JSON Schema (draft-07) of the robot YAML file, for
// yaml-language-server and other editors: completion of types and keys,
// descriptions on hover, and errors for missing or unknown keys.
func Schema() ([]byte, error) {
	defs := map[string]any{}
	var ifs []any
	for _, t := range Types() {
		props := map[string]any{
			"name": map[string]any{"type": "string", "minLength": 1, "description": "The URDF joint or sensor name: " + t.Place.doc() + "."},
			"type": map[string]any{"const": t.Name, "description": t.Summary},
		}
		required := []string{"name", "type"}
		for _, k := range t.Keys {
			props[k.Name] = keySchema(&k)
			if k.Required {
				required = append(required, k.Name)
			}
		}
		def := map[string]any{
			"type": "object", "description": t.Summary + " " + t.Doc,
			"properties": props, "required": required, "additionalProperties": false,
		}
		for kw, v := range t.Schema {
			def[kw] = v
		}
		defs[t.Name] = def
		ifs = append(ifs, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": t.Name}}, "required": []string{"type"}},
			"then": map[string]any{"$ref": "#/definitions/" + t.Name},
		})
	}
	var typeDocs []any
	for _, t := range Types() {
		typeDocs = append(typeDocs, map[string]any{"const": t.Name, "description": t.Summary})
	}
	defs["device"] = map[string]any{
		"type": "object", "required": []string{"name", "type"},
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "minLength": 1},
			"type": map[string]any{"description": "The device type: the WPILib class in snake_case.", "enum": TypeNames(), "anyOf": typeDocs},
		},
		"allOf": ifs,
	}
	var ctlIfs, ctlDocs []any
	for _, t := range ControllerTypes() {
		name := "controller_" + strings.ReplaceAll(t.Name, "/", ".")
		def := entrySchema(t, true, true)
		def["required"] = def["required"].([]string)[1:] // the name: in the list form only (see "controller")
		defs[name] = def
		ctlIfs = append(ctlIfs, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": t.Name}}, "required": []string{"type"}},
			"then": map[string]any{"$ref": "#/definitions/" + name},
		})
		ctlDocs = append(ctlDocs, map[string]any{"const": t.Name, "description": t.Summary})
	}
	defs["controller"] = map[string]any{
		"type": "object", "required": []string{"name", "type"},
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "minLength": 1},
			"type": map[string]any{"description": "The controller type.", "enum": ControllerTypeNames(), "anyOf": ctlDocs},
		},
		"allOf": ctlIfs,
	}
	// The same entry under its name, in ros_control's style: no name key.
	defs["controller_by_name"] = map[string]any{
		"type": "object", "required": []string{"type"},
		"not":        map[string]any{"required": []string{"name"}},
		"properties": map[string]any{"type": map[string]any{"description": "The controller type.", "enum": ControllerTypeNames(), "anyOf": ctlDocs}},
		"allOf":      ctlIfs,
	}
	s := map[string]any{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"title":                "frcd robot device list",
		"description":          "The YAML device list of a robot for frcd: every sensor, actuator and special device, by the names of its URDF joints and sensors.",
		"type":                 "object",
		"required":             []string{"joints"},
		"additionalProperties": false,
		"patternProperties":    map[string]any{"^x-": map[string]any{"description": "Free for YAML anchors: frcd ignores it."}},
		"properties": map[string]any{
			"joints": map[string]any{
				"type": "array", "description": "Every device of the robot: sensors, actuators and special devices.",
				"items": map[string]any{"$ref": "#/definitions/device"},
			},
			"controllers": map[string]any{
				"description": "Controllers in ros_control's style: a list of entries with names, or a mapping of names to entries.",
				"oneOf": []any{
					map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/controller"}},
					map[string]any{"type": "object", "additionalProperties": map[string]any{"$ref": "#/definitions/controller_by_name"}},
				},
			},
			"loop":     entrySchema(Loop, false, false),
			"sim":      simSchema(),
			"linux":    entrySchema(Linux, false, false),
			"nt4":      entrySchema(NT4, false, false),
			"op_modes": entrySchema(OpModes, false, false),
			"hal":      map[string]any{"type": "string", "minLength": 1, "description": halDoc},
		},
		"definitions": defs,
	}
	return json.MarshalIndent(s, "", "  ")
}

// entrySchema is the schema of a mapping of t's keys, with name and type
// keys when the entry has them.
func entrySchema(t *Type, named, typed bool) map[string]any {
	props := map[string]any{}
	var required []string
	if named {
		props["name"] = map[string]any{"type": "string", "minLength": 1, "description": t.nameDoc()}
		if !t.OptionalName {
			required = append(required, "name")
		}
	}
	if typed {
		props["type"] = map[string]any{"const": t.Name, "description": t.Summary}
		required = append(required, "type")
	}
	for _, k := range t.Keys {
		if group, sub, nested := strings.Cut(k.Name, "."); nested {
			g, ok := props[group].(map[string]any)
			if !ok {
				g = map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
				props[group] = g
			}
			g["properties"].(map[string]any)[sub] = keySchema(&k)
			continue
		}
		props[k.Name] = keySchema(&k)
		if k.Required {
			required = append(required, k.Name)
		}
	}
	s := map[string]any{"type": "object", "description": t.Summary + " " + t.Doc, "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func simSchema() map[string]any {
	s := entrySchema(Sim, false, false)
	props := s["properties"].(map[string]any)
	props["joints"] = map[string]any{
		"type": "array", "description": "Plant overrides per URDF joint.", "items": entrySchema(SimJoint, true, false),
	}
	props["sensors"] = map[string]any{
		"type": "array", "description": "Sensor faults per YAML sensor.", "items": entrySchema(SimSensor, true, false),
	}
	props["disturbances"] = map[string]any{
		"type": "array", "description": "Random pushes on joints or the drive base.", "items": entrySchema(SimDisturbance, true, false),
	}
	props["drivetrain"] = entrySchema(SimDrivetrain, false, false)
	props["can_faults"] = map[string]any{
		"type": "array", "description": "CAN devices falling silent.", "items": entrySchema(SimCANFault, true, false),
	}
	return s
}

func keySchema(k *Key) map[string]any {
	s := map[string]any{"description": k.meaning()}
	switch k.Kind {
	case Int:
		s["type"] = "integer"
	case Float:
		s["type"] = "number"
	case Bool:
		s["type"] = "boolean"
	case StringList:
		s["type"] = "array"
		s["minItems"] = 1
		s["uniqueItems"] = true
		s["items"] = map[string]any{"type": "string", "minLength": 1}
	default:
		s["type"] = "string"
	}
	if k.Default != nil {
		s["default"] = k.Default
	}
	switch {
	case len(k.Enum) > 0 && k.Kind == Int:
		var e []int
		for _, x := range k.Enum {
			n, _ := strconv.Atoi(x)
			e = append(e, n)
		}
		s["enum"] = e
	case len(k.Enum) > 0:
		s["enum"] = k.Enum
	case k.Resource != NoResource && k.Resource != NavXPort:
		lo, hi := k.Resource.Range()
		s["minimum"], s["maximum"] = lo, hi
	case k.HasRange:
		s["minimum"], s["maximum"] = k.Min, k.Max
	}
	if k.NonZero {
		s["not"] = map[string]any{"const": 0}
	}
	if k.Kind == String && len(k.Enum) == 0 {
		s["minLength"] = 1
	}
	return s
}
