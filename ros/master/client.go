package master

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Client makes XML-RPC calls over HTTP.
type Client struct {
	// HTTP is the client used; nil means http.DefaultClient.
	HTTP *http.Client
}

// Call invokes method at url with params and returns the response value,
// a *Fault error for a fault, or another error. ctx bounds the whole call.
func (c *Client) Call(ctx context.Context, url, method string, params ...any) (any, error) {
	return c.CallLimit(ctx, MaxBodySize, url, method, params...)
}

// CallLimit is Call reading at most limit bytes of the reply: a reply
// over it is an error (ErrTooLarge) that cost no more than limit bytes.
func (c *Client) CallLimit(ctx context.Context, limit int64, url, method string, params ...any) (any, error) {
	var body bytes.Buffer
	if err := EncodeCall(&body, method, params...); err != nil {
		return nil, fmt.Errorf("xmlrpc call %s: %w", method, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("xmlrpc call %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "text/xml")
	hc := http.DefaultClient
	if c != nil && c.HTTP != nil {
		hc = c.HTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("xmlrpc call %s to %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxBodySize))
		return nil, fmt.Errorf("xmlrpc call %s to %s: HTTP status %s", method, url, resp.Status)
	}
	v, err := DecodeResponseLimit(resp.Body, limit)
	if err != nil {
		var f *Fault
		if errors.As(err, &f) {
			return nil, err
		}
		return nil, fmt.Errorf("xmlrpc call %s to %s: %w", method, url, err)
	}
	return v, nil
}

// Call invokes method at url with http.DefaultClient; see Client.Call.
func Call(ctx context.Context, url, method string, params ...any) (any, error) {
	return (*Client)(nil).Call(ctx, url, method, params...)
}

// CallLimit is Call with http.DefaultClient; see Client.CallLimit.
func CallLimit(ctx context.Context, limit int64, url, method string, params ...any) (any, error) {
	return (*Client)(nil).CallLimit(ctx, limit, url, method, params...)
}
