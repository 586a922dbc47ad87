//go:build kube

package apply

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

// cluster is a real Kubernetes API server (the pinned kube-apiserver of
// tools/kube, on the pinned etcd) on 127.0.0.1, with no controllers, no
// scheduler and no nodes: what `kubectl apply` talks to, and no more. A
// Deployment is stored, defaulted and validated as on any cluster; no pod
// ever runs.
type cluster struct {
	kubeconfig string
	dir        string
}

// startCluster starts etcd and kube-apiserver, waits until the API server is
// ready, and stops both when the test ends (their logs printed if it failed).
func startCluster(t *testing.T) *cluster {
	t.Helper()
	dir := t.TempDir()
	etcdClient, etcdPeer := harness.FreeAddr(t), harness.FreeAddr(t)
	run(t, dir, "etcd", harness.Tool(t, "etcd"),
		"--name", "hotpath-test",
		"--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", "http://"+etcdClient, "--advertise-client-urls", "http://"+etcdClient,
		"--listen-peer-urls", "http://"+etcdPeer, "--initial-advertise-peer-urls", "http://"+etcdPeer,
		"--initial-cluster", "hotpath-test=http://"+etcdPeer,
		"--log-level", "warn",
	)

	// the service account token signer, and one user in system:masters
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "sa.key"), pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	write(t, filepath.Join(dir, "sa.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
	const token = "hotpath-apply-test"
	write(t, filepath.Join(dir, "tokens.csv"), []byte(token+`,admin,1,"system:masters"`+"\n"))

	api := harness.FreeAddr(t)
	_, port, _ := net.SplitHostPort(api)
	run(t, dir, "kube-apiserver", harness.Tool(t, "kube-apiserver"),
		"--etcd-servers", "http://"+etcdClient,
		"--bind-address", "127.0.0.1", "--secure-port", port,
		"--cert-dir", filepath.Join(dir, "certs"), // a self-signed serving certificate
		"--service-account-key-file", filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file", filepath.Join(dir, "sa.key"),
		"--service-account-issuer", "https://kubernetes.default.svc",
		"--token-auth-file", filepath.Join(dir, "tokens.csv"),
		"--authorization-mode", "AlwaysAllow",
		"--service-cluster-ip-range", "10.96.0.0/16",
		"--profiling=false",
	)

	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	err = promkit.Poll(context.Background(), 3*time.Minute, 500*time.Millisecond, func() (bool, error) {
		req, _ := http.NewRequest(http.MethodGet, "https://"+api+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return false, nil
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
	if err != nil {
		t.Fatalf("kube-apiserver on %s: not ready: %v", api, err)
	}

	c := &cluster{kubeconfig: filepath.Join(dir, "kubeconfig"), dir: dir}
	write(t, c.kubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: test, cluster: {server: "https://%s", insecure-skip-tls-verify: true}}]
users: [{name: admin, user: {token: %s}}]
contexts: [{name: test, context: {cluster: test, user: admin}}]
current-context: test
`, api, token)))
	return c
}

// kubectl runs the pinned kubectl against the cluster: its combined output,
// and an error when it exits non-zero.
func (c *cluster) kubectl(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(harness.RepoRoot(), ".tools", "bin", "kubectl"), args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+c.kubeconfig, "KUBECACHEDIR="+filepath.Join(c.dir, "kubecache"), "HOME="+c.dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// must is kubectl that fails the test on an error.
func (c *cluster) must(t *testing.T, args ...string) string {
	t.Helper()
	out, err := c.kubectl(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// run starts a process whose output goes to <dir>/<name>.log, stopped
// (SIGTERM, then SIGKILL after 10s) when the test ends.
func run(t *testing.T, dir, name, bin string, args ...string) {
	t.Helper()
	logPath := filepath.Join(dir, name+".log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		log.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			if len(b) > 8000 {
				b = b[len(b)-8000:]
			}
			t.Logf("%s log (end):\n%s", name, b)
		}
	})
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
