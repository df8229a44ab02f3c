package xmlrpc

import (
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
)

func decodeBool(in []byte, val reflect.Value) error {
	if len(in) != 1 {
		return fmt.Errorf("value is not a bool: '%v'", string(in))
	}

	var v bool
	switch in[0] {
	case '1':
		v = true

	case '0':
		v = false

	default:
		return fmt.Errorf("value is not a bool: '%v'", string(in))
	}

	switch tval := val.Interface().(type) {
	case *bool:
		*tval = v

	case *interface{}:
		*tval = v

	default:
		return fmt.Errorf("cannot decode a bool into a %T", val.Elem().Interface())
	}

	return nil
}

func decodeInt(in []byte, val reflect.Value) error {
	// in xmlrpc numbers are always 32 bits
	v, err := strconv.ParseInt(string(in), 10, 32)
	if err != nil {
		return err
	}

	switch tval := val.Interface().(type) {
	case *int:
		*tval = int(v)

	case *interface{}:
		*tval = int(v)

	default:
		return fmt.Errorf("cannot decode a int into a %T", val.Elem().Interface())
	}

	return nil
}

func decodeDouble(in []byte, val reflect.Value) error {
	v, err := strconv.ParseFloat(string(in), 64)
	if err != nil {
		return err
	}

	switch tval := val.Interface().(type) {
	case *float64:
		*tval = v

	case *interface{}:
		*tval = v

	default:
		return fmt.Errorf("cannot decode a double into a %T", val.Elem().Interface())
	}

	return nil
}

func decodeString(in []byte, val reflect.Value) error {
	switch tval := val.Interface().(type) {
	case *string:
		*tval = string(in)

	case *interface{}:
		*tval = string(in)

	default:
		return fmt.Errorf("cannot decode a string into a %T", val.Elem().Interface())
	}

	return nil
}

func decodeBase64(in []byte, val reflect.Value) error {
	byts, err := base64.StdEncoding.DecodeString(string(in))
	if err != nil {
		return err
	}

	switch tval := val.Interface().(type) {
	case *[]byte:
		*tval = byts

	case *interface{}:
		*tval = byts

	default:
		return fmt.Errorf("cannot decode a base64 into a %T", val.Elem().Interface())
	}

	return nil
}

func decodeArray(dec *xml.Decoder, val reflect.Value, depth int) error {
	err := xmlGetStartElement(dec, "data")
	if err != nil {
		return err
	}

	switch val.Elem().Kind() {
	case reflect.Interface:
		// Any value (frcd's fork): a []interface{}.
		if val.Elem().NumMethod() != 0 {
			return fmt.Errorf("cannot decode an array into a %s", val.Elem().Type())
		}
		arr := []interface{}{}
		for {
			err := xmlGetStartElement(dec, "value")
			if err != nil {
				if errors.Is(err, errEndElement) {
					break
				}
				return err
			}
			var el interface{}
			err = valueDecodeDepth(dec, reflect.ValueOf(&el), depth)
			if err != nil {
				return err
			}
			arr = append(arr, el)
		}
		val.Elem().Set(reflect.ValueOf(arr))

	case reflect.Struct:
		nf := val.Elem().NumField()
		for i := 0; i < nf; i++ {
			field := val.Elem().Field(i).Addr()

			err := xmlGetStartElement(dec, "value")
			if err != nil {
				return err
			}

			err = valueDecodeDepth(dec, field, depth)
			if err != nil {
				return err
			}
		}

		err := xmlGetEndElement(dec, true)
		if err != nil {
			return err
		}

	case reflect.Slice:
		typ := val.Elem().Type().Elem()

		for {
			err := xmlGetStartElement(dec, "value")
			if err != nil {
				// slice is over
				if errors.Is(err, errEndElement) {
					break
				}
				return err
			}

			el := reflect.New(typ)
			err = valueDecodeDepth(dec, el, depth)
			if err != nil {
				return err
			}

			val.Elem().Set(reflect.Append(val.Elem(), el.Elem()))
		}

	default:
		return fmt.Errorf("cannot decode an array into a %T", val.Elem().Interface())
	}

	return xmlGetEndElement(dec, true)
}

// MaxValueDepth bounds how deeply arrays and structs may nest in a
// decoded value (frcd's fork): the decoder recurses once per level, and
// the request's size (Limits.MaxBodyBytes) alone would allow ~100,000
// levels. A parameter tree this deep is not a ROS parameter: frcd's
// master stores names of at most 128 namespaces, and a node's parameters
// are a few levels deep.
const MaxValueDepth = 64

// ErrTooDeep is the error of a value nested deeper than MaxValueDepth.
var ErrTooDeep = errors.New("xmlrpc: value nested too deeply")

func valueDecode(dec *xml.Decoder, dest reflect.Value) error {
	return valueDecodeDepth(dec, dest, 0)
}

// valueDecodeDepth decodes a value that is depth arrays or structs deep.
func valueDecodeDepth(dec *xml.Decoder, dest reflect.Value, depth int) error {
	if dest.Kind() != reflect.Ptr {
		return fmt.Errorf("destination is not a pointer")
	}

	tok, err := dec.Token()
	if err != nil {
		return err
	}

	switch ttok := tok.(type) {
	// type name
	case xml.StartElement:
		switch ttok.Name.Local {
		case "boolean":
			cnt, err := xmlGetContent(dec)
			if err != nil {
				return err
			}

			err = decodeBool(cnt, dest)
			if err != nil {
				return err
			}

		case "int", "i4":
			cnt, err := xmlGetContent(dec)
			if err != nil {
				return err
			}

			err = decodeInt(cnt, dest)
			if err != nil {
				return err
			}

		case "double":
			cnt, err := xmlGetContent(dec)
			if err != nil {
				return err
			}

			err = decodeDouble(cnt, dest)
			if err != nil {
				return err
			}

		case "string":
			cnt, err := xmlGetContent(dec)
			if err != nil {
				return err
			}

			err = decodeString(cnt, dest)
			if err != nil {
				return err
			}

		case "base64":
			cnt, err := xmlGetContent(dec)
			if err != nil {
				return err
			}

			err = decodeBase64(cnt, dest)
			if err != nil {
				return err
			}

		case "array":
			if depth >= MaxValueDepth {
				return ErrTooDeep
			}
			err = decodeArray(dec, dest, depth+1)
			if err != nil {
				return err
			}

		case "struct":
			if depth >= MaxValueDepth {
				return ErrTooDeep
			}
			err = decodeStruct(dec, dest, depth+1)
			if err != nil {
				return err
			}

		default:
			return fmt.Errorf("unhandled value type: '%s'", ttok.Name.Local)
		}

		err = xmlGetEndElement(dec, true)
		if err != nil {
			return err
		}

	// string without tag
	case xml.CharData:
		err := decodeString(ttok, dest)
		if err != nil {
			return err
		}

		err = xmlGetEndElement(dec, true)
		if err != nil {
			return err
		}

	// string without tag and empty
	case xml.EndElement:
		err := decodeString([]byte{}, dest)
		if err != nil {
			return err
		}

	default:
		return fmt.Errorf("unexpected element type: %T", tok)
	}

	return nil
}

func valueEncode(w io.Writer, src reflect.Value) error {
	_, err := w.Write([]byte(`<value>`))
	if err != nil {
		return err
	}

	switch tval := src.Interface().(type) {
	case bool:
		v := "0"
		if tval {
			v = "1"
		}
		_, err := w.Write([]byte(`<boolean>` + v + `</boolean>`))
		if err != nil {
			return err
		}

	case int:
		_, err := w.Write([]byte(`<i4>` + strconv.FormatInt(int64(tval), 10) + `</i4>`))
		if err != nil {
			return err
		}

	case float64:
		_, err := w.Write([]byte(`<double>` + strconv.FormatFloat(tval, 'G', -1, 64) + `</double>`))
		if err != nil {
			return err
		}

	case string:
		_, err := w.Write([]byte(tval))
		if err != nil {
			return err
		}

	case []byte:
		_, err := w.Write([]byte(`<base64>` + base64.StdEncoding.EncodeToString(tval) + `</base64>`))
		if err != nil {
			return err
		}

	default:
		switch src.Kind() {
		case reflect.Struct:
			_, err := w.Write([]byte(`<array><data>`))
			if err != nil {
				return err
			}

			nf := src.NumField()
			for i := 0; i < nf; i++ {
				field := src.Field(i)

				err := valueEncode(w, field)
				if err != nil {
					return err
				}
			}

			_, err = w.Write([]byte(`</data></array>`))
			if err != nil {
				return err
			}

		case reflect.Slice:
			_, err := w.Write([]byte(`<array><data>`))
			if err != nil {
				return err
			}

			le := src.Len()
			for i := 0; i < le; i++ {
				el := src.Index(i)

				err := valueEncode(w, el)
				if err != nil {
					return err
				}
			}

			_, err = w.Write([]byte(`</data></array>`))
			if err != nil {
				return err
			}

		default:
			return fmt.Errorf("unhandled value type: %s", src.Type())
		}
	}

	_, err = w.Write([]byte(`</value>`))
	if err != nil {
		return err
	}

	return nil
}

// decodeStruct decodes a <struct> (frcd's fork: upstream had none) into a
// map[string]interface{}, which only an interface{} destination takes: a
// ROS parameter namespace, as paramUpdate sends it. A member named twice
// keeps its last value, as Python's xmlrpc.client does.
func decodeStruct(dec *xml.Decoder, val reflect.Value, depth int) error {
	tval, ok := val.Interface().(*interface{})
	if !ok {
		return fmt.Errorf("cannot decode a struct into a %s", val.Elem().Type())
	}
	m := map[string]interface{}{}
	for {
		err := xmlGetStartElement(dec, "member")
		if err != nil {
			if errors.Is(err, errEndElement) {
				break
			}
			return err
		}
		err = xmlGetStartElement(dec, "name")
		if err != nil {
			return err
		}
		name, err := xmlGetContent(dec)
		if err != nil {
			return err
		}
		err = xmlGetStartElement(dec, "value")
		if err != nil {
			return err
		}
		var v interface{}
		err = valueDecodeDepth(dec, reflect.ValueOf(&v), depth)
		if err != nil {
			return err
		}
		err = xmlGetEndElement(dec, true) // </member>
		if err != nil {
			return err
		}
		m[string(name)] = v
	}
	*tval = m
	return nil
}
