module github.com/frcd/frcd

go 1.23.0

require (
	github.com/bluenviron/goroslib/v2 v2.1.5
	github.com/coder/websocket v1.8.14
	github.com/go-daq/canbus v0.2.0
	github.com/pkg/sftp v1.13.10
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/tinylib/msgp v1.2.5
	golang.org/x/crypto v0.41.0
	golang.org/x/sys v0.35.0
	gopkg.in/yaml.v3 v3.0.1
	periph.io/x/conn/v3 v3.7.2
	periph.io/x/host/v3 v3.8.5
)

require (
	github.com/gookit/color v1.5.4 // indirect
	github.com/jonboulle/clockwork v0.4.0 // indirect
	github.com/kr/fs v0.1.0 // indirect
	github.com/philhofer/fwd v1.1.3-0.20240916144458-20a13a1f6b7c // indirect
	github.com/xo/terminfo v0.0.0-20210125001918-ca9a967f8778 // indirect
	golang.org/x/text v0.28.0 // indirect
)

replace github.com/bluenviron/goroslib/v2 => ./third_party/goroslib
