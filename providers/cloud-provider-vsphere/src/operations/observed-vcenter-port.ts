/** A VcenterPort decorator recording latency and errors of every call (core's cloud API metrics). */
import type { CloudApiObserver } from '@ccm/core';
import type { VcenterPort } from '../ports/vcenter-port.js';

export function withApiMetrics(port: VcenterPort, observer: CloudApiObserver): VcenterPort {
  return {
    name: port.name,
    tagging: {
      listAttachedTags: (ref, signal) => observer.observe('ListAttachedTags', () => port.tagging.listAttachedTags(ref, signal)),
      getTag: (id, signal) => observer.observe('GetTag', () => port.tagging.getTag(id, signal)),
      getCategory: (id, signal) => observer.observe('GetCategory', () => port.tagging.getCategory(id, signal)),
      listCategories: (signal) => observer.observe('ListCategories', () => port.tagging.listCategories(signal)),
    },
    listDatacenters: (signal) => observer.observe('ListDatacenters', () => port.listDatacenters(signal)),
    findVmByUuid: (datacenter, uuid, signal) => observer.observe('FindByUuid', () => port.findVmByUuid(datacenter, uuid, signal)),
    findVmsByDnsName: (datacenter, name, signal) => observer.observe('FindAllByDnsName', () => port.findVmsByDnsName(datacenter, name, signal)),
    findVmByIp: (datacenter, ip, signal) => observer.observe('FindByIp', () => port.findVmByIp(datacenter, ip, signal)),
    retrieveVms: (refs, signal) => observer.observe('RetrieveVirtualMachines', () => port.retrieveVms(refs, signal)),
    ancestors: (ref, signal) => observer.observe('RetrieveAncestors', () => port.ancestors(ref, signal)),
    close: () => port.close(),
  };
}
