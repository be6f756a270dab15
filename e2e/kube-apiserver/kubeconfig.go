package main

import (
	"encoding/base64"
	"os"
	"strconv"
)

// writeKubeconfig writes an admin kubeconfig (client certificate of system:masters) with the
// certificates inlined, so the file stays valid on its own.
func writeKubeconfig(path, server string, files certificateFiles) error {
	inline := func(file string) (string, error) {
		bytes, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		return base64.StdEncoding.EncodeToString(bytes), nil
	}
	ca, err := inline(files.servingCACert)
	if err != nil {
		return err
	}
	certificate, err := inline(files.adminCert)
	if err != nil {
		return err
	}
	key, err := inline(files.adminKey)
	if err != nil {
		return err
	}
	text := `apiVersion: v1
kind: Config
clusters:
- name: kube-apiserver-for-tests
  cluster:
    server: ` + strconv.Quote(server) + `
    certificate-authority-data: ` + ca + `
users:
- name: admin
  user:
    client-certificate-data: ` + certificate + `
    client-key-data: ` + key + `
contexts:
- name: admin
  context:
    cluster: kube-apiserver-for-tests
    user: admin
current-context: admin
`
	return os.WriteFile(path, []byte(text), 0o600)
}
