package incidents

import (
	"math/rand"
	"net/http"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// ProtobufContentType is what the cache answers with: the story's cache sent
// files as protobuf messages (over gRPC); here the transport is plain HTTP,
// the payload the same kind of message.
const ProtobufContentType = "application/x-protobuf"

// NewBlob returns size bytes that look like the story's files (images):
// binary, mostly not printable, so that text-marshalling them escapes nearly
// every byte, as it did for the emoji images. Seeded, so runs are comparable.
func NewBlob(size int, seed int64) []byte {
	b := make([]byte, size)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

// CacheHandler serves one blob, marshalled once at start-up as a
// wrapperspb.BytesValue: the cache's CPU per request is then the cost of
// writing bytes to a socket, the "10% of the API's CPU" baseline of the println story.
//
//go:noinline
func CacheHandler(blob []byte) http.Handler {
	msg, err := proto.Marshal(wrapperspb.Bytes(blob))
	if err != nil {
		panic(err) // a BytesValue always marshals
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ProtobufContentType)
		_, _ = w.Write(msg)
	})
}
