package ros

import "reflect"

// guard wraps a goroslib callback (any func type) so that a panic in it is
// handed to onPanic, on the goroutine that ran it, instead of ending the
// process with the outputs as they were; the call then returns zero values
// (a service call fails). With no onPanic, fn is returned as it is.
func guard(fn any, onPanic func(any)) any {
	if onPanic == nil {
		return fn
	}
	v := reflect.ValueOf(fn)
	t := v.Type()
	return reflect.MakeFunc(t, func(args []reflect.Value) (out []reflect.Value) {
		defer func() {
			if r := recover(); r != nil {
				onPanic(r)
				out = make([]reflect.Value, t.NumOut())
				for i := range out {
					out[i] = reflect.Zero(t.Out(i))
				}
			}
		}()
		return v.Call(args)
	}).Interface()
}
