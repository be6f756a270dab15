// Command kube-apiserver-for-tests runs the real kube-apiserver of one pinned Kubernetes release
// (go.mod) with an embedded etcd in a single process, for the TypeScript end-to-end tests.
//
// Everything it writes (certificates, keys, etcd data, logs) stays in one temporary folder that
// it removes on exit; the only file outside it is the admin kubeconfig named by --kubeconfig, and
// the audit log named by --audit-log. The API server's own log goes to stderr. It prints one JSON line on stdout once /readyz answers ok:
//
//	{"server":"https://127.0.0.1:PORT","kubeconfig":"FILE","infoFile":"FILE"}
//
// and nothing secret (no key, no token). SIGTERM or SIGINT stops the API server, then etcd, and
// exits 0.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap/zapcore"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

type options struct {
	port           int
	kubeconfigFile string
	auditLogFile   string
	auditUsers     string
	infoFile       string
	verbosity      int
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "kube-apiserver-for-tests: %v\n", err)
		os.Exit(1)
	}
}

func parseOptions() (options, error) {
	var opts options
	flags := flag.NewFlagSet("kube-apiserver-for-tests", flag.ContinueOnError)
	flags.IntVar(&opts.port, "port", 0, "secure port on 127.0.0.1 (0: a free port)")
	flags.StringVar(&opts.kubeconfigFile, "kubeconfig", "", "where to write the admin kubeconfig (required)")
	flags.StringVar(&opts.auditLogFile, "audit-log", "", "audit log file (JSON lines); empty: no audit log")
	flags.StringVar(&opts.auditUsers, "audit-users", "system:serviceaccount:kube-system:cloud-controller-manager", "comma-separated users whose requests the audit log records")
	flags.StringVar(&opts.infoFile, "info-file", "", "where to write JSON naming the CA, client CA and front-proxy files (default: next to the kubeconfig)")
	flags.IntVar(&opts.verbosity, "v", 0, "the API server's log verbosity")
	if err := flags.Parse(os.Args[1:]); err != nil {
		return opts, err
	}
	if opts.kubeconfigFile == "" {
		return opts, fmt.Errorf("--kubeconfig FILE is required")
	}
	if opts.infoFile == "" {
		opts.infoFile = opts.kubeconfigFile + ".info.json"
	}
	return opts, nil
}

func run() error {
	opts, err := parseOptions()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "kube-apiserver-for-tests-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	files, err := writeCertificates(filepath.Join(work, "pki"))
	if err != nil {
		return fmt.Errorf("generating certificates: %w", err)
	}
	port := opts.port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}
	server := "https://127.0.0.1:" + strconv.Itoa(port)

	etcd, err := startEtcd(filepath.Join(work, "etcd"))
	if err != nil {
		return fmt.Errorf("starting etcd: %w", err)
	}
	defer etcd.Close()

	arguments := []string{
		"--etcd-servers=" + etcd.Clients[0].Addr().String(),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + filepath.Join(work, "serving"),
		"--tls-cert-file=" + files.servingCert,
		"--tls-private-key-file=" + files.servingKey,
		"--client-ca-file=" + files.clientCACert,
		"--requestheader-client-ca-file=" + files.frontProxyCACert,
		"--requestheader-allowed-names=front-proxy-client",
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file=" + files.frontProxyClientCert,
		"--proxy-client-key-file=" + files.frontProxyClientKey,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + files.serviceAccountPublicKey,
		"--service-account-signing-key-file=" + files.serviceAccountPrivateKey,
		"--service-cluster-ip-range=10.96.0.0/12",
		"--authorization-mode=Node,RBAC",
		// 127.0.0.1 may not be an Endpoints address; nothing here needs the kubernetes Service endpoints.
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"-v=" + strconv.Itoa(opts.verbosity),
	}
	if opts.auditLogFile != "" {
		policy := filepath.Join(work, "audit-policy.yaml")
		if err := os.WriteFile(policy, []byte(auditPolicy(strings.Split(opts.auditUsers, ","))), 0o600); err != nil {
			return err
		}
		arguments = append(arguments,
			"--audit-policy-file="+policy,
			"--audit-log-path="+opts.auditLogFile,
			"--audit-log-format=json",
			"--audit-log-mode=blocking",
			"--audit-log-maxsize=0",
		)
	}

	command := app.NewAPIServerCommand()
	command.SetArgs(arguments)
	command.SilenceUsage = true
	done := make(chan error, 1)
	go func() { done <- command.Execute() }()

	if err := waitReady(server, files, done); err != nil {
		return err
	}
	if err := writeKubeconfig(opts.kubeconfigFile, server, files); err != nil {
		return err
	}
	if err := writeInfo(opts.infoFile, server, files); err != nil {
		return err
	}
	line, _ := json.Marshal(map[string]string{"server": server, "kubeconfig": opts.kubeconfigFile, "infoFile": opts.infoFile})
	fmt.Println(string(line))

	// The API server command installs its own SIGTERM/SIGINT handler and returns once it has
	// shut down; etcd is closed by the deferred call above.
	if err := <-done; err != nil {
		return fmt.Errorf("kube-apiserver: %w", err)
	}
	return nil
}

func startEtcd(directory string) (*embed.Etcd, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, err
	}
	config := embed.NewConfig()
	config.Name = "kube-apiserver-for-tests"
	config.Dir = directory
	config.LogLevel = zapcore.ErrorLevel.String()
	config.UnsafeNoFsync = true
	clientURL := mustURL("http://127.0.0.1:" + strconv.Itoa(clientPort))
	peerURL := mustURL("http://127.0.0.1:" + strconv.Itoa(peerPort))
	config.ListenClientUrls = []url.URL{clientURL}
	config.AdvertiseClientUrls = []url.URL{clientURL}
	config.ListenPeerUrls = []url.URL{peerURL}
	config.AdvertisePeerUrls = []url.URL{peerURL}
	config.InitialCluster = config.Name + "=" + peerURL.String()
	etcd, err := embed.StartEtcd(config)
	if err != nil {
		return nil, err
	}
	select {
	case <-etcd.Server.ReadyNotify():
		return etcd, nil
	case <-time.After(60 * time.Second):
		etcd.Close()
		return nil, fmt.Errorf("etcd did not become ready within 60s")
	}
}

func waitReady(server string, files certificateFiles, done <-chan error) error {
	certificate, err := tls.LoadX509KeyPair(files.adminCert, files.adminKey)
	if err != nil {
		return err
	}
	pool := x509.NewCertPool()
	caBytes, err := os.ReadFile(files.servingCACert)
	if err != nil {
		return err
	}
	pool.AppendCertsFromPEM(caBytes)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{certificate}}}}
	deadline := time.Now().Add(180 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			return fmt.Errorf("kube-apiserver exited before it was ready: %v", err)
		default:
		}
		response, err := client.Get(server + "/readyz")
		if err == nil {
			response.Body.Close()
			if response.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("kube-apiserver did not answer /readyz ok within 180s")
}

func freePort() (int, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer listener.Close()
	return listener.Addr().(*net.TCPAddr).Port, nil
}

func auditPolicy(users []string) string {
	var quoted []string
	for _, user := range users {
		if user = strings.TrimSpace(user); user != "" {
			quoted = append(quoted, strconv.Quote(user))
		}
	}
	return `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  users: [` + strings.Join(quoted, ", ") + `]
- level: None
`
}

func writeInfo(path, server string, files certificateFiles) error {
	info := map[string]string{
		"server":                   server,
		"caFile":                   files.servingCACert,
		"clientCaFile":             files.clientCACert,
		"clientCaKeyFile":          files.clientCAKey,
		"frontProxyCaFile":         files.frontProxyCACert,
		"frontProxyCaKeyFile":      files.frontProxyCAKey,
		"frontProxyClientCertFile": files.frontProxyClientCert,
		"frontProxyClientKeyFile":  files.frontProxyClientKey,
	}
	bytes, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, bytes, 0o600)
}

func mustURL(text string) url.URL {
	parsed, err := url.Parse(text)
	if err != nil {
		panic(err)
	}
	return *parsed
}
