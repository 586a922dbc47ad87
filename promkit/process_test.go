package promkit

import (
	"net"
	"testing"
)

// A test reserves addresses before it starts their servers (Thanos Query's,
// for the ruler that queries it): two reservations must never share a port,
// although the kernel readily hands out a port it has just freed: before
// FreeAddr remembered what it gave out, 2000 calls drew about 250 repeats, the
// first by the 11th call.
func TestFreeAddrNeverRepeats(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 2000; i++ {
		addr, err := FreeAddr()
		if err != nil {
			t.Fatal(err)
		}
		if seen[addr] {
			t.Fatalf("call %d returned %s again", i, addr)
		}
		seen[addr] = true
	}
	// and what it returns is free: a server can listen there
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	l.Close()
}
