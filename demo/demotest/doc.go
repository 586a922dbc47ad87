// Package demotest is `make demo-test`: the playground (demo/playground)
// run as a test. Once the world is live it polls the alerts API through a
// normal phase (no alert may fire) and then with every incident on (each
// expected alert must fire for the right service within the limit, nothing
// for a healthy one), then runs the sandbox's browser check and the alert
// path's check, and writes demo/demo-test-results.md.
package demotest
