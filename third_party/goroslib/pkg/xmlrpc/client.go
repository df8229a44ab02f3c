// Package xmlrpc implements the XML-RPC protocol, in a variant fit for ROS.
package xmlrpc

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// MaxResponseBytes bounds a response the client reads: room for a large
// parameter (a robot_description of megabytes), not for an endless body.
// (frcd's fork: upstream read responses whole, bounded only by the
// http.Client's timeout.)
const MaxResponseBytes = 64 << 20

// Client is a XML-RPC client.
type Client struct {
	httpClient *http.Client
	url        string
}

// NewClient allocates a Client.
func NewClient(host string, httpClient *http.Client) *Client {
	return &Client{
		httpClient: httpClient,
		url: (&url.URL{
			Scheme: "http",
			Host:   host,
			Path:   "/RPC2",
		}).String(),
	}
}

// Do writes a request and reads a response.
func (c *Client) Do(method string, paramsReq interface{}, paramsRes interface{}) error {
	var buf bytes.Buffer
	err := requestEncode(&buf, method, paramsReq)
	if err != nil {
		return err
	}

	res, err := c.httpClient.Post(c.url, "text/xml", &buf)
	if err != nil {
		return err
	}
	defer res.Body.Close()

	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		return fmt.Errorf("bad status code: %d", res.StatusCode)
	}

	err = responseDecode(io.LimitReader(res.Body, MaxResponseBytes), paramsRes)
	if err != nil {
		return err
	}

	return nil
}
