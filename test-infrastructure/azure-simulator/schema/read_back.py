#!/usr/bin/env python3
"""Read back every resource kind from an ARM endpoint with Microsoft's Python SDKs.

The second, independent client of the Azure simulator: azure-mgmt-network and azure-mgmt-compute
with a static bearer token over https (``connection_verify`` = the simulator's CA file,
``base_url`` = the simulator). Reads one resource group and prints a JSON summary of its load
balancers, public IPs, NSGs, route tables, NICs, VMs, scale sets, scale-set VMs and their NICs.

stdin: {"endpoint", "caCertFile", "subscriptionId", "token", "resourceGroup"}
"""
import json
import sys
import time

from azure.core.credentials import AccessToken
from azure.mgmt.compute import ComputeManagementClient
from azure.mgmt.network import NetworkManagementClient


class StaticTokenCredential:
    """A TokenCredential that always answers the same bearer token."""

    def __init__(self, token):
        self._token = token

    def get_token(self, *scopes, **kwargs):
        return AccessToken(self._token, int(time.time()) + 3600)


def ref(value):
    return None if value is None else value.id


def power_state(instance_view):
    for status in (instance_view.statuses or []) if instance_view else []:
        if status.code and status.code.startswith("PowerState/"):
            return status.code
    return None


def main():
    settings = json.load(sys.stdin)
    credential = StaticTokenCredential(settings["token"])
    common = {
        "base_url": settings["endpoint"],
        "connection_verify": settings["caCertFile"],
        "credential_scopes": [settings["endpoint"] + "/.default"],
        "polling_interval": 0,
        "retry_total": 0,
    }
    network = NetworkManagementClient(credential, settings["subscriptionId"], **common)
    compute = ComputeManagementClient(credential, settings["subscriptionId"], **common)
    group = settings["resourceGroup"]

    summary = {}
    summary["loadBalancers"] = sorted(
        (
            {
                "name": balancer.name,
                "sku": balancer.sku.name if balancer.sku else None,
                "frontends": sorted(
                    [frontend.name, ref(frontend.public_ip_address), ref(frontend.subnet), frontend.private_ip_address]
                    for frontend in balancer.frontend_ip_configurations or []
                ),
                "pools": sorted(
                    [pool.name, sorted(member.id.lower() for member in pool.backend_ip_configurations or [])]
                    for pool in balancer.backend_address_pools or []
                ),
                "rules": sorted(
                    [
                        rule.name,
                        rule.protocol,
                        rule.frontend_port,
                        rule.backend_port,
                        ref(rule.probe),
                        rule.enable_floating_ip,
                        rule.idle_timeout_in_minutes,
                        rule.enable_tcp_reset,
                        rule.load_distribution,
                        rule.disable_outbound_snat,
                        ref(rule.frontend_ip_configuration),
                        ref(rule.backend_address_pool),
                    ]
                    for rule in balancer.load_balancing_rules or []
                ),
                "probes": sorted(
                    [probe.name, probe.protocol, probe.port, probe.request_path, probe.interval_in_seconds, probe.probe_threshold]
                    for probe in balancer.probes or []
                ),
                "tags": balancer.tags or {},
                "outboundRules": sorted(rule.name for rule in balancer.outbound_rules or []),
            }
            for balancer in network.load_balancers.list(group)
        ),
        key=lambda item: item["name"],
    )
    summary["publicIPAddresses"] = sorted(
        (
            {
                "name": address.name,
                "ipAddress": address.ip_address,
                "tags": address.tags or {},
                "ipConfiguration": ref(address.ip_configuration),
                "sku": address.sku.name if address.sku else None,
                "allocation": address.public_ip_allocation_method,
                "version": address.public_ip_address_version,
                "dnsLabel": address.dns_settings.domain_name_label if address.dns_settings else None,
                "fqdn": address.dns_settings.fqdn if address.dns_settings else None,
            }
            for address in network.public_ip_addresses.list(group)
        ),
        key=lambda item: item["name"],
    )
    summary["networkSecurityGroups"] = sorted(
        (
            {"name": group_.name, "rules": sorted(
                    [
                        rule.name,
                        rule.priority,
                        rule.direction,
                        rule.access,
                        rule.protocol,
                        sorted(([rule.source_address_prefix] if rule.source_address_prefix else []) + list(rule.source_address_prefixes or [])),
                        sorted(([rule.destination_address_prefix] if rule.destination_address_prefix else []) + list(rule.destination_address_prefixes or [])),
                        sorted(([rule.destination_port_range] if rule.destination_port_range else []) + list(rule.destination_port_ranges or [])),
                    ]
                    for rule in group_.security_rules or []
                ), "subnets": sorted(ref(subnet) for subnet in group_.subnets or [])}
            for group_ in network.network_security_groups.list(group)
        ),
        key=lambda item: item["name"],
    )
    summary["routeTables"] = sorted(
        (
            {"name": table.name, "routes": sorted([route.name, route.address_prefix, route.next_hop_type, route.next_hop_ip_address] for route in table.routes or [])}
            for table in network.route_tables.list(group)
        ),
        key=lambda item: item["name"],
    )
    summary["networkInterfaces"] = sorted(
        (
            {
                "name": nic.name,
                "virtualMachine": ref(nic.virtual_machine),
                "ipConfigurations": sorted(
                    [configuration.name, configuration.private_ip_address, ref(configuration.subnet), sorted(ref(pool) for pool in configuration.load_balancer_backend_address_pools or [])]
                    for configuration in nic.ip_configurations or []
                ),
            }
            for nic in network.network_interfaces.list(group)
        ),
        key=lambda item: item["name"],
    )
    machines = []
    for machine in compute.virtual_machines.list(group):
        detailed = compute.virtual_machines.get(group, machine.name, expand="instanceView")
        properties = detailed.properties
        machines.append(
            {
                "name": detailed.name,
                "vmSize": properties.hardware_profile.vm_size,
                "computerName": properties.os_profile.computer_name if properties.os_profile else None,
                "networkInterfaces": [ref(reference) for reference in properties.network_profile.network_interfaces or []],
                "availabilitySet": ref(properties.availability_set),
                "virtualMachineScaleSet": ref(properties.virtual_machine_scale_set),
                "zones": detailed.zones or [],
                "powerState": power_state(properties.instance_view),
                "faultDomain": properties.instance_view.platform_fault_domain if properties.instance_view else None,
            }
        )
    summary["virtualMachines"] = sorted(machines, key=lambda item: item["name"])
    scale_sets = []
    instances = []
    for scale_set in compute.virtual_machine_scale_sets.list(group):
        scale_sets.append({"name": scale_set.name, "orchestrationMode": scale_set.properties.orchestration_mode, "capacity": scale_set.sku.capacity if scale_set.sku else None})
        if scale_set.properties.orchestration_mode != "Uniform":
            continue
        nics = {nic.id.lower(): nic for nic in network.network_interfaces.list_virtual_machine_scale_set_network_interfaces(group, scale_set.name)}
        for instance in compute.virtual_machine_scale_set_vms.list(group, scale_set.name, expand="instanceView"):
            properties = instance.properties
            references = [ref(reference) for reference in properties.network_profile.network_interfaces or []]
            instances.append(
                {
                    "name": instance.name,
                    "instanceId": instance.instance_id,
                    "computerName": properties.os_profile.computer_name,
                    "zones": instance.zones or [],
                    "latestModelApplied": properties.latest_model_applied,
                    "powerState": power_state(properties.instance_view),
                    "networkInterfaces": references,
                    "privateIPs": sorted(
                        configuration.private_ip_address
                        for reference in references
                        for configuration in (nics[reference.lower()].ip_configurations or [])
                    ),
                }
            )
    summary["virtualMachineScaleSets"] = sorted(scale_sets, key=lambda item: item["name"])
    summary["scaleSetVirtualMachines"] = sorted(instances, key=lambda item: item["name"])
    summary["availabilitySets"] = sorted(
        ({"name": item.name, "virtualMachines": sorted(ref(member) for member in item.properties.virtual_machines or [])} for item in compute.availability_sets.list(group)),
        key=lambda item: item["name"],
    )
    json.dump(summary, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
