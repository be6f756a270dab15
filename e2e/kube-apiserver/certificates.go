package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// certificateFiles names every PEM file the API server and its clients use; all of them live in
// the temporary folder.
type certificateFiles struct {
	servingCACert, servingCert, servingKey            string
	clientCACert, clientCAKey                         string
	adminCert, adminKey                               string
	frontProxyCACert, frontProxyCAKey                 string
	frontProxyClientCert, frontProxyClientKey         string
	serviceAccountPublicKey, serviceAccountPrivateKey string
}

type authority struct {
	certificate *x509.Certificate
	key         *ecdsa.PrivateKey
}

func writeCertificates(directory string) (certificateFiles, error) {
	var files certificateFiles
	if err := os.MkdirAll(directory, 0o700); err != nil {
		return files, err
	}
	path := func(name string) string { return filepath.Join(directory, name) }

	servingCA, err := newAuthority("kube-apiserver-for-tests-ca", path("ca.crt"), path("ca.key"))
	if err != nil {
		return files, err
	}
	files.servingCACert = path("ca.crt")
	files.servingCert, files.servingKey = path("apiserver.crt"), path("apiserver.key")
	if err := servingCA.issue(pkix.Name{CommonName: "kube-apiserver"}, x509.ExtKeyUsageServerAuth,
		[]string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
		[]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.96.0.1")}, files.servingCert, files.servingKey); err != nil {
		return files, err
	}

	clientCA, err := newAuthority("kube-apiserver-for-tests-client-ca", path("client-ca.crt"), path("client-ca.key"))
	if err != nil {
		return files, err
	}
	files.clientCACert, files.clientCAKey = path("client-ca.crt"), path("client-ca.key")
	files.adminCert, files.adminKey = path("admin.crt"), path("admin.key")
	if err := clientCA.issue(pkix.Name{CommonName: "kube-apiserver-for-tests-admin", Organization: []string{"system:masters"}},
		x509.ExtKeyUsageClientAuth, nil, nil, files.adminCert, files.adminKey); err != nil {
		return files, err
	}

	frontProxyCA, err := newAuthority("kube-apiserver-for-tests-front-proxy-ca", path("front-proxy-ca.crt"), path("front-proxy-ca.key"))
	if err != nil {
		return files, err
	}
	files.frontProxyCACert, files.frontProxyCAKey = path("front-proxy-ca.crt"), path("front-proxy-ca.key")
	files.frontProxyClientCert, files.frontProxyClientKey = path("front-proxy-client.crt"), path("front-proxy-client.key")
	if err := frontProxyCA.issue(pkix.Name{CommonName: "front-proxy-client"}, x509.ExtKeyUsageClientAuth, nil, nil,
		files.frontProxyClientCert, files.frontProxyClientKey); err != nil {
		return files, err
	}

	serviceAccountKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return files, err
	}
	files.serviceAccountPrivateKey, files.serviceAccountPublicKey = path("sa.key"), path("sa.pub")
	if err := writeKey(files.serviceAccountPrivateKey, serviceAccountKey); err != nil {
		return files, err
	}
	publicBytes, err := x509.MarshalPKIXPublicKey(&serviceAccountKey.PublicKey)
	if err != nil {
		return files, err
	}
	if err := writePEM(files.serviceAccountPublicKey, "PUBLIC KEY", publicBytes); err != nil {
		return files, err
	}
	return files, nil
}

func newAuthority(commonName, certificateFile, keyFile string) (*authority, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	template := &x509.Certificate{
		SerialNumber:          serialNumber(),
		Subject:               pkix.Name{CommonName: commonName},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(10 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	certificate, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	if err := writePEM(certificateFile, "CERTIFICATE", der); err != nil {
		return nil, err
	}
	if err := writeKey(keyFile, key); err != nil {
		return nil, err
	}
	return &authority{certificate: certificate, key: key}, nil
}

func (ca *authority) issue(subject pkix.Name, usage x509.ExtKeyUsage, dnsNames []string, addresses []net.IP, certificateFile, keyFile string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	template := &x509.Certificate{
		SerialNumber: serialNumber(),
		Subject:      subject,
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(10 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     dnsNames,
		IPAddresses:  addresses,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, ca.certificate, &key.PublicKey, ca.key)
	if err != nil {
		return err
	}
	if err := writePEM(certificateFile, "CERTIFICATE", der); err != nil {
		return err
	}
	return writeKey(keyFile, key)
}

func serialNumber() *big.Int {
	limit := new(big.Int).Lsh(big.NewInt(1), 62)
	number, _ := rand.Int(rand.Reader, limit)
	return number
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(path, "EC PRIVATE KEY", der)
}

func writePEM(path, blockType string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600)
}
