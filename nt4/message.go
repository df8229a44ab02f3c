package nt4

import (
	"encoding/json"

	"github.com/frcd/frcd/nt4/wire"
)

// The codec is nt4/wire's (the client's too); the server reads and
// writes messages through these names.
type (
	// Value is one message of a binary frame (wire.Value).
	Value = wire.Value
	// Control is one control message of a text frame (wire.Control).
	Control = wire.Control
)

// Binary type ids (wire's).
const (
	TypeBoolean     = wire.TypeBoolean
	TypeDouble      = wire.TypeDouble
	TypeInt         = wire.TypeInt
	TypeFloat       = wire.TypeFloat
	TypeString      = wire.TypeString
	TypeRaw         = wire.TypeRaw
	TypeBooleanArr  = wire.TypeBooleanArr
	TypeDoubleArr   = wire.TypeDoubleArr
	TypeIntArr      = wire.TypeIntArr
	TypeFloatArr    = wire.TypeFloatArr
	TypeStringArr   = wire.TypeStringArr
	maxMessageBytes = wire.MaxMessageBytes
)

// TypeID is the binary type id of a type string (wire.TypeID).
func TypeID(typ string) uint8 { return wire.TypeID(typ) }

// DecodeText reads a text frame (wire.DecodeText).
func DecodeText(b []byte) ([]Control, error) { return wire.DecodeText(b) }

// DecodeBinary calls f with each message of a binary frame
// (wire.DecodeBinary).
func DecodeBinary(b []byte, f func(v Value)) error { return wire.DecodeBinary(b, f) }

func appendHeader(b []byte, id int64, t int64, typ uint8) []byte {
	return wire.AppendHeader(b, id, t, typ)
}

// The params of the client's messages. Subscribe takes 4.1's topics and
// options.prefix, and 4.0's prefixes (always prefixes).
type (
	publishParams struct {
		Name       string          `json:"name"`
		PubUID     *int64          `json:"pubuid"`
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
	}
	unpublishParams struct {
		PubUID *int64 `json:"pubuid"`
	}
	setPropertiesParams struct {
		Name   string                     `json:"name"`
		Update map[string]json.RawMessage `json:"update"`
	}
	subscribeParams struct {
		Topics   []string   `json:"topics"`
		Prefixes []string   `json:"prefixes"`
		SubUID   *int64     `json:"subuid"`
		Options  subOptions `json:"options"`
	}
	subOptions struct {
		Periodic   *float64 `json:"periodic"`
		All        bool     `json:"all"`
		TopicsOnly bool     `json:"topicsonly"`
		Prefix     bool     `json:"prefix"`
	}
	unsubscribeParams struct {
		SubUID *int64 `json:"subuid"`
	}
)
