module github.com/frcd/frcd

go 1.23

require (
	github.com/bluenviron/goroslib/v2 v2.1.5
	github.com/go-daq/canbus v0.2.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	golang.org/x/sys v0.18.0
	gopkg.in/yaml.v3 v3.0.1
	periph.io/x/conn/v3 v3.7.2
)

require (
	github.com/coder/websocket v1.8.14 // indirect
	github.com/gookit/color v1.5.4 // indirect
	github.com/xo/terminfo v0.0.0-20210125001918-ca9a967f8778 // indirect
	golang.org/x/text v0.14.0 // indirect
)
