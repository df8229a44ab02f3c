package master

import "fmt"

// maxMulticall bounds the calls of one system.multicall, as MaxBodySize
// bounds its bytes.
const maxMulticall = 1000

// multicall is XML-RPC's system.multicall, which rospy's nodes use to
// unregister everything at once when they exit (and xmlrpc.client's
// MultiCall in general): params is one array of {methodName, params}
// structs; the answer has, for each call in order, its result wrapped in
// a one-element array, or a fault struct {faultCode, faultString}. A
// multicall inside a multicall is a fault, as in Python's server.
func (m *Master) multicall(params []any, from string) any {
	if len(params) != 1 {
		return multicallFault(fmt.Sprintf("system.multicall takes one array of calls, got %d arguments", len(params)))
	}
	calls, ok := params[0].([]any)
	if !ok {
		return multicallFault("system.multicall takes an array of calls")
	}
	if len(calls) > maxMulticall {
		return multicallFault(fmt.Sprintf("system.multicall of %d calls: at most %d", len(calls), maxMulticall))
	}
	out := make([]any, len(calls))
	for i, c := range calls {
		s, ok := c.(map[string]any)
		if !ok {
			out[i] = multicallFault("each call is a struct {methodName, params}")
			continue
		}
		method, _ := s["methodName"].(string)
		args, ok := s["params"].([]any)
		if !ok {
			args = nil
		}
		h, known := apiMethods[method]
		switch {
		case method == "system.multicall":
			out[i] = multicallFault("system.multicall cannot be nested")
		case !known:
			out[i] = multicallFault(fmt.Sprintf("method %q is not supported", method))
		default:
			out[i] = []any{m.call(h, args, from)}
		}
	}
	return out
}

func multicallFault(msg string) map[string]any {
	return map[string]any{"faultCode": 1, "faultString": msg}
}
