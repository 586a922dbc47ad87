package incidents

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// CacheClient fetches blobs from the cache service, the api's upstream.
type CacheClient struct {
	BaseURL string       // e.g. http://127.0.0.1:9102
	HTTP    *http.Client // shared, so connections are reused as a gRPC channel would be
	// OnCall is called once per call to the cache, successful or not: the api
	// counts its calls as the service-graph edge api -> cache.
	OnCall func()
}

// Get fetches the message stored under key.
func (c *CacheClient) Get(ctx context.Context, key string) (*wrapperspb.BytesValue, error) {
	if c.OnCall != nil {
		c.OnCall()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/blob?key="+url.QueryEscape(key), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("cache: %s", resp.Status)
	}
	d := &wrapperspb.BytesValue{}
	if err := proto.Unmarshal(body, d); err != nil {
		return nil, fmt.Errorf("cache: decoding the message: %w", err)
	}
	return d, nil
}

// APIHandler streams the blob it fetches from the cache to the client. With
// the incident on it also prints the fetched message, exactly as the println story's
// forgotten debug line did: fmt.Println calls the message's String method,
// which text-marshals it (google.golang.org/protobuf/encoding/prototext),
// escaping every byte of the payload. That one line is the whole incident.
//
//go:noinline
func APIHandler(cache *CacheClient, debugPrint *Switch) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("key")
		if key == "" {
			key = "emoji.png"
		}
		d, err := cache.Get(r.Context(), key)
		if debugPrint.On() {
			fmt.Println("err", d, err)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(d.GetValue())
	})
}
