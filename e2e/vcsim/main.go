// Command vcsim runs govmomi's vCenter simulator (VPX model) for the TypeScript test suites.
//
// Build (module mode; go.mod pins github.com/vmware/govmomi, fetched through the Go module proxy):
//
//	GOFLAGS='-mod=readonly -buildvcs=false' go build -o .bin/vcsim .
//
// It listens on 127.0.0.1 (port 0 by default) with a fresh self-signed certificate and prints
// exactly one JSON line on stdout once it serves:
//
//	{"url":"https://127.0.0.1:PORT","sdkUrl":".../sdk","username":...,"password":...,
//	 "caFile":"/tmp/...pem","thumbprint":"AA:BB:...","adminUrl":".../admin"}
//
// Unlike a stock simulator, every VM gets guest data, as if VMware Tools were running:
// guest.hostName = the VM name lower-cased with '_' replaced by '-', guest.ipAddress and the
// first NIC's guest.net entry = 10.0.<n/200>.<n%200+10> for the n-th VM (VMs sorted by name,
// then in creation order), and the NIC's network name. The /admin/ endpoints (JSON) change the
// inventory from a test:
//
//	GET  /admin/inventory                   datacenters, clusters, hosts and VMs with their refs
//	GET  /admin/vms                         every VM
//	POST /admin/vms                         create a VM: {"name", "cluster"|"host", "numCpu", "memoryMB", "guestId", "powerOn", "guest"}
//	POST /admin/vms/<name>/power-off|power-on|suspend|destroy
//	POST /admin/vms/<name>/guest            {"hostName", "ipAddress", "net": [{"network","ipAddress":[],"deviceConfigId","macAddress"}]}
//	POST /admin/vms/<name>/extra-config     {"key": "value", ...} through ReconfigVM_Task
//	POST /admin/credentials                 {"username", "password"}: the only login accepted from now on (SOAP and vAPI REST)
//	POST /admin/sessions/terminate          ends every SOAP session (clients must log in again)
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/sim25"
	_ "github.com/vmware/govmomi/vapi/simulator" // registers the vAPI REST endpoints (tagging)
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

type options struct {
	listen          string
	datacenters     int
	clusters        int
	clusterHosts    int
	standaloneHosts int
	machines        int
	folders         int
	username        string
	password        string
	plainHTTP       bool
	seedGuest       bool
	exitOnStdinEOF  bool
	sessionIdle     time.Duration
}

func parseOptions() options {
	var o options
	flag.StringVar(&o.listen, "listen", "127.0.0.1:0", "address to listen on")
	flag.IntVar(&o.datacenters, "dc", 1, "number of datacenters")
	flag.IntVar(&o.clusters, "cluster", 1, "number of clusters per datacenter")
	flag.IntVar(&o.clusterHosts, "host", 3, "number of hosts per cluster")
	flag.IntVar(&o.standaloneHosts, "standalone-host", 1, "number of standalone hosts per datacenter")
	flag.IntVar(&o.machines, "vm", 2, "number of VMs per resource pool (cluster) and per standalone host")
	flag.IntVar(&o.folders, "folder", 0, "number of datacenters placed inside a folder")
	flag.StringVar(&o.username, "username", "administrator@vsphere.local", "the only user SOAP Login accepts")
	flag.StringVar(&o.password, "password", "vcsim-password", "the only password SOAP Login accepts")
	flag.BoolVar(&o.plainHTTP, "http", false, "serve plain HTTP instead of HTTPS")
	flag.BoolVar(&o.seedGuest, "seed-guest", true, "give every VM a guest hostname, IP address and network")
	flag.BoolVar(&o.exitOnStdinEOF, "exit-on-stdin-eof", false, "exit when stdin is closed (the parent process died)")
	flag.DurationVar(&o.sessionIdle, "session-idle-timeout", 0, "expire idle sessions after this long (0 = never)")
	flag.Parse()
	return o
}

func main() {
	log.SetOutput(os.Stderr)
	log.SetFlags(0)
	log.SetPrefix("vcsim: ")
	o := parseOptions()

	model := simulator.VPX()
	model.Datacenter = o.datacenters
	model.Cluster = o.clusters
	model.ClusterHost = o.clusterHosts
	model.Host = o.standaloneHosts
	model.Machine = o.machines
	model.Folder = o.folders
	if err := model.Create(); err != nil {
		log.Fatalf("creating the inventory: %v", err)
	}
	defer model.Remove()

	model.Service.RegisterEndpoints = true
	certificateFile := ""
	thumbprint := ""
	if !o.plainHTTP {
		certificate, pemBytes, err := selfSignedCertificate()
		if err != nil {
			log.Fatalf("creating a certificate: %v", err)
		}
		model.Service.TLS = &tls.Config{Certificates: []tls.Certificate{certificate}}
		file, err := os.CreateTemp("", "vcsim-ca-*.pem")
		if err != nil {
			log.Fatalf("writing the certificate: %v", err)
		}
		if _, err := file.Write(pemBytes); err != nil {
			log.Fatalf("writing the certificate: %v", err)
		}
		_ = file.Close()
		certificateFile = file.Name()
		defer os.Remove(certificateFile)
		thumbprint = sha1Thumbprint(certificate.Certificate[0])
	}
	model.Service.Listen = &url.URL{Host: o.listen, User: url.UserPassword(o.username, o.password)}
	server := model.Service.NewServer()
	defer server.Close()

	ctx := context.Background()
	client, err := vim25.NewClient(ctx, model.Service)
	if err != nil {
		log.Fatalf("creating the in-process client: %v", err)
	}
	if o.sessionIdle > 0 {
		if err := sim25.SetSessionTimeout(ctx, client, o.sessionIdle); err != nil {
			log.Fatalf("setting the session idle timeout: %v", err)
		}
	}
	admin := &admin{model: model, client: client, server: server, username: o.username, password: o.password}
	model.Map().SessionManager().ValidLogin = admin.validLogin
	if o.seedGuest {
		if err := admin.seedAllGuests(); err != nil {
			log.Fatalf("seeding guest data: %v", err)
		}
	}
	model.Service.ServeMux.HandleFunc("/admin/", admin.serve)

	base := url.URL{Scheme: server.URL.Scheme, Host: server.URL.Host}
	ready := map[string]string{
		"url":        base.String(),
		"sdkUrl":     base.String() + "/sdk",
		"adminUrl":   base.String() + "/admin",
		"username":   o.username,
		"password":   o.password,
		"caFile":     certificateFile,
		"thumbprint": thumbprint,
	}
	line, _ := json.Marshal(ready)
	fmt.Println(string(line))

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	if o.exitOnStdinEOF {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop <- syscall.SIGTERM
		}()
	}
	<-stop
}

// selfSignedCertificate makes a fresh ECDSA CA certificate for 127.0.0.1, ::1 and localhost.
func selfSignedCertificate() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	template := x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "vcsim test CA", Organization: []string{"ccm vcsim"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, &template, &template, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	keyDer, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certificatePem := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPem := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDer})
	certificate, err := tls.X509KeyPair(certificatePem, keyPem)
	return certificate, certificatePem, err
}

func sha1Thumbprint(der []byte) string {
	sum := sha1.Sum(der)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

type admin struct {
	model  *simulator.Model
	client *vim25.Client
	server *simulator.Server

	mu        sync.Mutex
	nextGuest int

	credential sync.Mutex
	username   string
	password   string
}

// registry is the simulator's inventory (vim25 namespace).
func (a *admin) registry() *simulator.Registry {
	return a.model.Map()
}

// withLock runs f holding the simulator's lock on obj. Each call gets its own locking context,
// so two admin requests never share a lock holder.
func (a *admin) withLock(obj mo.Reference, f func()) {
	locker := &simulator.Context{Context: context.Background(), Map: a.registry()}
	locker.WithLock(obj, f)
}

// validLogin is the simulator's login check (SOAP Login and the vAPI REST session): only the
// current credentials pass.
func (a *admin) validLogin(request *types.Login) bool {
	a.credential.Lock()
	defer a.credential.Unlock()
	return request.UserName == a.username && request.Password == a.password
}

type adminError struct {
	status  int
	message string
}

func (e *adminError) Error() string { return e.message }

func badRequest(format string, args ...interface{}) error {
	return &adminError{status: http.StatusBadRequest, message: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...interface{}) error {
	return &adminError{status: http.StatusNotFound, message: fmt.Sprintf(format, args...)}
}

func (a *admin) serve(w http.ResponseWriter, r *http.Request) {
	result, err := a.route(r)
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		status := http.StatusInternalServerError
		var typed *adminError
		if errors.As(err, &typed) {
			status = typed.status
		}
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
		return
	}
	if result == nil {
		result = map[string]bool{"ok": true}
	}
	_ = json.NewEncoder(w).Encode(result)
}

func (a *admin) route(r *http.Request) (interface{}, error) {
	path := strings.Trim(strings.TrimPrefix(r.URL.EscapedPath(), "/admin"), "/")
	parts := strings.Split(path, "/")
	for i := range parts {
		unescaped, err := url.PathUnescape(parts[i])
		if err != nil {
			return nil, badRequest("bad path segment %q", parts[i])
		}
		parts[i] = unescaped
	}
	ctx := r.Context()
	switch {
	case r.Method == http.MethodGet && path == "inventory":
		return a.inventory(), nil
	case r.Method == http.MethodGet && path == "vms":
		return a.inventory().VirtualMachines, nil
	case r.Method == http.MethodPost && path == "vms":
		var request createRequest
		if err := decode(r, &request); err != nil {
			return nil, err
		}
		return a.createVM(ctx, request)
	case r.Method == http.MethodPost && len(parts) == 3 && parts[0] == "vms":
		vm, err := a.findVM(parts[1])
		if err != nil {
			return nil, err
		}
		switch parts[2] {
		case "power-off":
			return nil, a.power(ctx, vm, "off")
		case "power-on":
			return nil, a.power(ctx, vm, "on")
		case "suspend":
			return nil, a.power(ctx, vm, "suspend")
		case "destroy":
			return nil, a.destroy(ctx, vm)
		case "guest":
			var request guestRequest
			if err := decode(r, &request); err != nil {
				return nil, err
			}
			a.setGuest(vm, request)
			return a.describeVM(vm), nil
		case "extra-config":
			values := map[string]string{}
			if err := decode(r, &values); err != nil {
				return nil, err
			}
			return nil, a.setExtraConfig(ctx, vm, values)
		}
	case r.Method == http.MethodPost && path == "credentials":
		var request struct {
			Username string `json:"username"`
			Password string `json:"password"`
		}
		if err := decode(r, &request); err != nil {
			return nil, err
		}
		if request.Username == "" || request.Password == "" {
			return nil, badRequest("username and password are required")
		}
		a.credential.Lock()
		a.username, a.password = request.Username, request.Password
		a.credential.Unlock()
		return nil, nil
	case r.Method == http.MethodPost && path == "sessions/terminate":
		return map[string]int{"terminated": a.terminateSessions()}, nil
	}
	return nil, notFound("no admin endpoint %s %s", r.Method, r.URL.Path)
}

func decode(r *http.Request, into interface{}) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return badRequest("reading the body: %v", err)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, into); err != nil {
		return badRequest("decoding the body: %v", err)
	}
	return nil
}

type reference struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

func refOf(ref types.ManagedObjectReference) reference {
	return reference{Type: ref.Type, Value: ref.Value}
}

type namedObject struct {
	Name   string     `json:"name"`
	Ref    reference  `json:"ref"`
	Parent *reference `json:"parent,omitempty"`
}

type vmView struct {
	Name         string         `json:"name"`
	Ref          reference      `json:"ref"`
	UUID         string         `json:"uuid"`
	InstanceUUID string         `json:"instanceUuid"`
	PowerState   string         `json:"powerState"`
	Host         namedObject    `json:"host"`
	ResourcePool reference      `json:"resourcePool"`
	Datacenter   string         `json:"datacenter"`
	HostName     string         `json:"hostName"`
	IPAddress    string         `json:"ipAddress"`
	Net          []guestNicView `json:"net"`
	NumCPU       int32          `json:"numCpu"`
	MemoryMB     int32          `json:"memoryMB"`
	GuestID      string         `json:"guestId"`
}

type guestNicView struct {
	Network        string   `json:"network"`
	IPAddress      []string `json:"ipAddress"`
	DeviceConfigID int32    `json:"deviceConfigId"`
	MacAddress     string   `json:"macAddress"`
}

type inventoryView struct {
	Datacenters     []namedObject `json:"datacenters"`
	Clusters        []namedObject `json:"clusters"`
	Hosts           []namedObject `json:"hosts"`
	Folders         []namedObject `json:"folders"`
	ResourcePools   []namedObject `json:"resourcePools"`
	VirtualMachines []vmView      `json:"virtualMachines"`
}

func named(entity mo.Entity) namedObject {
	e := entity.Entity()
	view := namedObject{Name: e.Name, Ref: refOf(entity.Reference())}
	if e.Parent != nil {
		parent := refOf(*e.Parent)
		view.Parent = &parent
	}
	return view
}

func (a *admin) sortedEntities(kind string) []mo.Entity {
	entities := a.registry().All(kind)
	sort.Slice(entities, func(i, j int) bool {
		return entities[i].Entity().Name < entities[j].Entity().Name
	})
	return entities
}

func (a *admin) inventory() inventoryView {
	var view inventoryView
	for _, entity := range a.sortedEntities("Datacenter") {
		view.Datacenters = append(view.Datacenters, named(entity))
	}
	for _, entity := range a.sortedEntities("ClusterComputeResource") {
		view.Clusters = append(view.Clusters, named(entity))
	}
	for _, entity := range a.sortedEntities("HostSystem") {
		view.Hosts = append(view.Hosts, named(entity))
	}
	for _, entity := range a.sortedEntities("Folder") {
		view.Folders = append(view.Folders, named(entity))
	}
	for _, entity := range a.sortedEntities("ResourcePool") {
		view.ResourcePools = append(view.ResourcePools, named(entity))
	}
	view.VirtualMachines = []vmView{}
	for _, entity := range a.sortedEntities("VirtualMachine") {
		view.VirtualMachines = append(view.VirtualMachines, a.describeVM(entity.(*simulator.VirtualMachine)))
	}
	return view
}

func (a *admin) datacenterOf(entity mo.Entity) string {
	for current := entity; current != nil; {
		if dc, ok := current.(*simulator.Datacenter); ok {
			return dc.Name
		}
		parent := current.Entity().Parent
		if parent == nil {
			return ""
		}
		next, ok := a.registry().Get(*parent).(mo.Entity)
		if !ok {
			return ""
		}
		current = next
	}
	return ""
}

func (a *admin) describeVM(vm *simulator.VirtualMachine) vmView {
	var view vmView
	a.withLock(vm, func() {
		view = vmView{
			Name:       vm.Name,
			Ref:        refOf(vm.Self),
			PowerState: string(vm.Runtime.PowerState),
			Datacenter: a.datacenterOf(vm),
			Net:        []guestNicView{},
		}
		if vm.Config != nil {
			view.UUID = vm.Config.Uuid
			view.InstanceUUID = vm.Config.InstanceUuid
			view.NumCPU = vm.Config.Hardware.NumCPU
			view.MemoryMB = vm.Config.Hardware.MemoryMB
			view.GuestID = vm.Config.GuestId
		}
		if vm.Runtime.Host != nil {
			view.Host = namedObject{Ref: refOf(*vm.Runtime.Host)}
		}
		if vm.ResourcePool != nil {
			view.ResourcePool = refOf(*vm.ResourcePool)
		}
		if vm.Guest != nil {
			view.HostName = vm.Guest.HostName
			view.IPAddress = vm.Guest.IpAddress
			for _, nic := range vm.Guest.Net {
				ips := nic.IpAddress
				if ips == nil {
					ips = []string{}
				}
				view.Net = append(view.Net, guestNicView{Network: nic.Network, IPAddress: ips, DeviceConfigID: nic.DeviceConfigId, MacAddress: nic.MacAddress})
			}
		}
	})
	if view.Host.Ref.Value != "" {
		if host, ok := a.registry().Get(types.ManagedObjectReference{Type: view.Host.Ref.Type, Value: view.Host.Ref.Value}).(mo.Entity); ok {
			view.Host = named(host)
		}
	}
	return view
}

func (a *admin) findVM(name string) (*simulator.VirtualMachine, error) {
	for _, entity := range a.registry().All("VirtualMachine") {
		if entity.Entity().Name == name {
			return entity.(*simulator.VirtualMachine), nil
		}
	}
	return nil, notFound("no virtual machine named %q", name)
}

func (a *admin) findEntity(kind, name string) (mo.Entity, error) {
	for _, entity := range a.registry().All(kind) {
		if entity.Entity().Name == name {
			return entity, nil
		}
	}
	return nil, notFound("no %s named %q", kind, name)
}

// nextAddress hands out 10.0.<n/200>.<n%200+10>, in seeding order.
func (a *admin) nextAddress() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.nextGuest
	a.nextGuest++
	return fmt.Sprintf("10.0.%d.%d", n/200, n%200+10)
}

func guestHostName(vmName string) string {
	return strings.ReplaceAll(strings.ToLower(vmName), "_", "-")
}

func (a *admin) networkName(vm *simulator.VirtualMachine) string {
	if len(vm.Network) == 0 {
		return ""
	}
	if entity, ok := a.registry().Get(vm.Network[0]).(mo.Entity); ok {
		return entity.Entity().Name
	}
	return ""
}

func (a *admin) seedAllGuests() error {
	for _, entity := range a.sortedEntities("VirtualMachine") {
		a.seedGuest(entity.(*simulator.VirtualMachine), nil)
	}
	return nil
}

// seedGuest gives a VM the guest data VMware Tools would report: hostname, primary IP and the
// first NIC's IP and network name.
func (a *admin) seedGuest(vm *simulator.VirtualMachine, override *guestRequest) {
	request := guestRequest{}
	if override != nil {
		request = *override
	}
	if request.HostName == nil {
		name := guestHostName(vm.Name)
		request.HostName = &name
	}
	if request.IPAddress == nil {
		address := a.nextAddress()
		request.IPAddress = &address
	}
	if request.Net == nil {
		network := a.networkName(vm)
		var nets []guestNicView
		a.withLock(vm, func() {
			for i, nic := range vm.Guest.Net {
				view := guestNicView{Network: network, IPAddress: []string{}, DeviceConfigID: nic.DeviceConfigId, MacAddress: nic.MacAddress}
				if i == 0 && *request.IPAddress != "" {
					view.IPAddress = []string{*request.IPAddress}
				}
				nets = append(nets, view)
			}
		})
		if nets == nil {
			nets = []guestNicView{}
		}
		request.Net = &nets
	}
	a.setGuest(vm, request)
}

type guestRequest struct {
	HostName  *string         `json:"hostName"`
	IPAddress *string         `json:"ipAddress"`
	Net       *[]guestNicView `json:"net"`
}

func (a *admin) setGuest(vm *simulator.VirtualMachine, request guestRequest) {
	a.withLock(vm, func() {
		if vm.Guest == nil {
			vm.Guest = &types.GuestInfo{}
		}
		if vm.Summary.Guest == nil {
			vm.Summary.Guest = &types.VirtualMachineGuestSummary{}
		}
		if request.HostName != nil {
			vm.Guest.HostName = *request.HostName
			vm.Summary.Guest.HostName = *request.HostName
		}
		if request.IPAddress != nil {
			vm.Guest.IpAddress = *request.IPAddress
			vm.Summary.Guest.IpAddress = *request.IPAddress
		}
		if request.Net != nil {
			nets := make([]types.GuestNicInfo, 0, len(*request.Net))
			for _, nic := range *request.Net {
				nets = append(nets, types.GuestNicInfo{
					Network:        nic.Network,
					IpAddress:      nic.IPAddress,
					MacAddress:     nic.MacAddress,
					Connected:      true,
					DeviceConfigId: nic.DeviceConfigID,
				})
			}
			vm.Guest.Net = nets
		}
		vm.Guest.ToolsRunningStatus = string(types.VirtualMachineToolsRunningStatusGuestToolsRunning)
		vm.Guest.ToolsStatus = types.VirtualMachineToolsStatusToolsOk
		vm.Summary.Guest.ToolsRunningStatus = vm.Guest.ToolsRunningStatus
		vm.Summary.Guest.ToolsStatus = vm.Guest.ToolsStatus
	})
}

type createRequest struct {
	Name       string        `json:"name"`
	Datacenter string        `json:"datacenter"`
	Cluster    string        `json:"cluster"`
	Host       string        `json:"host"`
	NumCPU     int32         `json:"numCpu"`
	MemoryMB   int64         `json:"memoryMB"`
	GuestID    string        `json:"guestId"`
	PowerOn    *bool         `json:"powerOn"`
	Guest      *guestRequest `json:"guest"`
}

func (a *admin) createVM(ctx context.Context, request createRequest) (interface{}, error) {
	if request.Name == "" {
		return nil, badRequest("name is required")
	}
	if _, err := a.findVM(request.Name); err == nil {
		return nil, &adminError{status: http.StatusConflict, message: fmt.Sprintf("a virtual machine named %q exists", request.Name)}
	}
	var host *simulator.HostSystem
	switch {
	case request.Host != "":
		entity, err := a.findEntity("HostSystem", request.Host)
		if err != nil {
			return nil, err
		}
		host = entity.(*simulator.HostSystem)
	default:
		clusterName := request.Cluster
		var cluster mo.Entity
		if clusterName != "" {
			found, err := a.findEntity("ClusterComputeResource", clusterName)
			if err != nil {
				return nil, err
			}
			cluster = found
		} else {
			clusters := a.sortedEntities("ClusterComputeResource")
			for _, candidate := range clusters {
				if request.Datacenter == "" || a.datacenterOf(candidate) == request.Datacenter {
					cluster = candidate
					break
				}
			}
			if cluster == nil {
				return nil, badRequest("no cluster to place the VM in: give \"host\"")
			}
		}
		hosts := cluster.(*simulator.ClusterComputeResource).Host
		if len(hosts) == 0 {
			return nil, badRequest("cluster %q has no hosts", cluster.Entity().Name)
		}
		var candidates []*simulator.HostSystem
		for _, ref := range hosts {
			candidates = append(candidates, a.registry().Get(ref).(*simulator.HostSystem))
		}
		sort.Slice(candidates, func(i, j int) bool { return candidates[i].Name < candidates[j].Name })
		host = candidates[0]
	}

	datacenter := a.datacenterOf(host)
	dcEntity, err := a.findEntity("Datacenter", datacenter)
	if err != nil {
		return nil, err
	}
	dc := object.NewDatacenter(a.client, dcEntity.Reference())
	folders, err := dc.Folders(ctx)
	if err != nil {
		return nil, err
	}
	hostObject := object.NewHostSystem(a.client, host.Reference())
	pool, err := hostObject.ResourcePool(ctx)
	if err != nil {
		return nil, err
	}

	guestID := request.GuestID
	if guestID == "" {
		guestID = string(types.VirtualMachineGuestOsIdentifierOtherGuest)
	}
	spec := types.VirtualMachineConfigSpec{
		Name:     request.Name,
		GuestId:  guestID,
		NumCPUs:  request.NumCPU,
		MemoryMB: request.MemoryMB,
		Files:    &types.VirtualMachineFileInfo{VmPathName: "[LocalDS_0]"},
	}
	var devices object.VirtualDeviceList
	backing, err := a.networkBacking(ctx, host)
	if err != nil {
		return nil, err
	}
	nic, err := devices.CreateEthernetCard("vmxnet3", backing)
	if err != nil {
		return nil, err
	}
	devices = append(devices, nic)
	spec.DeviceChange, err = devices.ConfigSpec(types.VirtualDeviceConfigSpecOperationAdd)
	if err != nil {
		return nil, err
	}
	task, err := folders.VmFolder.CreateVM(ctx, spec, pool, hostObject)
	if err != nil {
		return nil, err
	}
	info, err := task.WaitForResult(ctx, nil)
	if err != nil {
		return nil, err
	}
	vm := a.registry().Get(info.Result.(types.ManagedObjectReference)).(*simulator.VirtualMachine)
	if request.PowerOn == nil || *request.PowerOn {
		if err := a.power(ctx, vm, "on"); err != nil {
			return nil, err
		}
	}
	a.seedGuest(vm, request.Guest)
	return a.describeVM(vm), nil
}

// networkBacking picks the network model VMs use: the host's first distributed port group
// (sorted by name), else its first standard network.
func (a *admin) networkBacking(ctx context.Context, host *simulator.HostSystem) (types.BaseVirtualDeviceBackingInfo, error) {
	var portgroups, networks []mo.Entity
	for _, ref := range host.Network {
		entity, ok := a.registry().Get(ref).(mo.Entity)
		if !ok {
			continue
		}
		switch ref.Type {
		case "DistributedVirtualPortgroup":
			if !strings.Contains(entity.Entity().Name, "Uplink") {
				portgroups = append(portgroups, entity)
			}
		case "Network":
			networks = append(networks, entity)
		}
	}
	byName := func(list []mo.Entity) {
		sort.Slice(list, func(i, j int) bool { return list[i].Entity().Name < list[j].Entity().Name })
	}
	byName(portgroups)
	byName(networks)
	if len(portgroups) > 0 {
		return object.NewDistributedVirtualPortgroup(a.client, portgroups[0].Reference()).EthernetCardBackingInfo(ctx)
	}
	if len(networks) > 0 {
		return object.NewNetwork(a.client, networks[0].Reference()).EthernetCardBackingInfo(ctx)
	}
	return nil, badRequest("host %q has no network", host.Name)
}

func (a *admin) power(ctx context.Context, vm *simulator.VirtualMachine, state string) error {
	machine := object.NewVirtualMachine(a.client, vm.Reference())
	current, err := machine.PowerState(ctx)
	if err != nil {
		return err
	}
	var task *object.Task
	switch state {
	case "on":
		if current == types.VirtualMachinePowerStatePoweredOn {
			return nil
		}
		task, err = machine.PowerOn(ctx)
	case "off":
		if current == types.VirtualMachinePowerStatePoweredOff {
			return nil
		}
		task, err = machine.PowerOff(ctx)
	case "suspend":
		if current == types.VirtualMachinePowerStateSuspended {
			return nil
		}
		task, err = machine.Suspend(ctx)
	}
	if err != nil {
		return err
	}
	return task.Wait(ctx)
}

func (a *admin) destroy(ctx context.Context, vm *simulator.VirtualMachine) error {
	if err := a.power(ctx, vm, "off"); err != nil {
		return err
	}
	task, err := object.NewVirtualMachine(a.client, vm.Reference()).Destroy(ctx)
	if err != nil {
		return err
	}
	return task.Wait(ctx)
}

func (a *admin) setExtraConfig(ctx context.Context, vm *simulator.VirtualMachine, values map[string]string) error {
	keys := make([]string, 0, len(values))
	for key := range values {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	var spec types.VirtualMachineConfigSpec
	for _, key := range keys {
		spec.ExtraConfig = append(spec.ExtraConfig, &types.OptionValue{Key: key, Value: values[key]})
	}
	task, err := object.NewVirtualMachine(a.client, vm.Reference()).Reconfigure(ctx, spec)
	if err != nil {
		return err
	}
	return task.Wait(ctx)
}

// terminateSessions ends every SOAP session, as a vCenter restart or an expired session would.
func (a *admin) terminateSessions() int {
	manager := a.registry().SessionManager()
	adminSession := &simulator.Session{UserSession: types.UserSession{Key: "vcsim-admin"}, Registry: simulator.NewRegistry(), Map: a.registry()}
	view, ok := adminSession.Get(manager.Reference()).(*simulator.SessionManager)
	if !ok {
		return 0
	}
	terminator := &simulator.Context{Context: context.Background(), Session: adminSession, Map: a.registry()}
	terminated := 0
	for _, session := range view.SessionList {
		// One call per session: a session that expired meanwhile fails alone.
		result := manager.TerminateSession(terminator, &types.TerminateSession{This: manager.Reference(), SessionId: []string{session.Key}})
		if result.Fault() == nil {
			terminated++
		}
	}
	return terminated
}
